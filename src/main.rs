//! `pbrain-pentad`: with no arguments, the Gomocup (pbrain) protocol on stdin/stdout; `bench`
//! runs the fixed-depth benchmark; `puzzles` measures the solve rate on tactical sets; `analyze`
//! analyses positions for scripts; `play` is a game against the engine in the terminal; `tune`
//! fits the evaluation weights to game results; `book` builds the opening book.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The command line with arguments (without any, the binary speaks the protocol and clap is
/// never called: it must write nothing to stderr).
#[derive(Parser, Debug)]
#[command(
    name = "pbrain-pentad",
    version,
    about = "Pentad, a Gomoku engine. Without arguments it speaks the Gomocup/Piskvork \
             protocol on stdin/stdout.",
    after_help = "Each command has --help.\n\nLogging (off by default): PENTAD_LOG=<file> \
                  [PENTAD_LOG_LEVEL=debug|info|trace|<filter>]",
    subcommand_required = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Bench(cli::bench::Args),
    Puzzles(cli::puzzles::Args),
    #[command(visible_alias = "analyse")]
    Analyze(cli::analyze::Args),
    Play(cli::play::Args),
    Tune(cli::tune::Args),
    Book(cli::book::Args),
    /// Print the version (as --version)
    #[command(hide = true)]
    Version,
}

fn main() -> ExitCode {
    if std::env::args_os().len() <= 1 {
        pentad::protocol::init_logging();
        // A panic must not write to stderr (Piskvork reads stderr as protocol output).
        std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
        let exit = pentad::protocol::run(std::io::stdin(), std::io::stdout());
        log::debug!("exit: {exit:?}");
        // Ends the process even if a stopped search thread is still unwinding.
        std::process::exit(0)
    }
    // Argument errors exit 2 with clap's message; --help and --version exit 0.
    let cli = Cli::parse();
    // Failures after parsing keep each command's prefix and exit code.
    let (name, code, result) = match cli.command {
        Command::Bench(a) => ("bench", 1, cli::bench::run(a)),
        Command::Puzzles(a) => ("puzzles", 1, cli::puzzles::run(a)),
        Command::Analyze(a) => ("analyze", 2, cli::analyze::run(a)),
        Command::Play(a) => ("play", 2, cli::play::run(a)),
        Command::Tune(a) => ("pbrain-pentad tune", 1, cli::tune::run(a)),
        Command::Book(a) => ("book", 1, cli::book::run(a)),
        Command::Version => {
            println!("pbrain-pentad {}", env!("CARGO_PKG_VERSION"));
            ("version", 0, Ok(()))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e:#}");
            ExitCode::from(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
