//! `pbrain-pentad`: with no arguments, the Gomocup (pbrain) protocol on stdin/stdout; `bench`
//! runs the fixed-depth benchmark; `puzzles` measures the solve rate on tactical sets; `analyze`
//! analyses positions for scripts; `play` is a game against the engine in the terminal; `tune`
//! fits the evaluation weights to game results.

mod cli;

use std::process::ExitCode;

const USAGE: &str = "\
usage: pbrain-pentad            speak the Gomocup/Piskvork protocol on stdin/stdout
       pbrain-pentad bench [DEPTH [HASH_MB]] | bench --time MS | bench --make-undo
                                search the bench positions and print the node count
       pbrain-pentad puzzles FILE [--task VCF,VCT3] [--time MS | --nodes N] [--limit N] [--verbose]
                     [--threads N] [--threats-only]
                                solve rate and time per puzzle (JSON lines)
       pbrain-pentad analyze [MOVES | FILE.psq | FILE.sgf] [--stdin] [--rule R] [--size N|WxH]
                     [--time MS] [--depth D] [--nodes N] [--multipv K] [--threads T]
                     [--hash MB] [--json]
                                best moves, scores, lines and forced wins of a position
       pbrain-pentad play [--rule R] [--size N|WxH] [--color black|white] [--depth D | --time MS]
                     [--load FILE] [--hash MB] [--no-color]
                                a game against the engine in the terminal
       pbrain-pentad tune GAMES.jsonl... [--rule N] [--skip PLIES] [--iterations N] [--own W]
                                Texel fit of the evaluation weights to game results
       pbrain-pentad --help | --version

Logging (off by default): PENTAD_LOG=<file> [PENTAD_LOG_LEVEL=debug|info|trace|<filter>]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            pentad::protocol::init_logging();
            // A panic must not write to stderr (Piskvork reads stderr as protocol output).
            std::panic::set_hook(Box::new(|info| log::error!("panic: {info}")));
            let exit = pentad::protocol::run(std::io::stdin(), std::io::stdout());
            log::debug!("exit: {exit:?}");
            // Ends the process even if a stopped search thread is still unwinding.
            std::process::exit(0)
        }
        Some("bench") => match cli::bench::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("bench: {e:#}");
                ExitCode::FAILURE
            }
        },
        Some("puzzles") => match cli::puzzles::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("puzzles: {e:#}");
                ExitCode::FAILURE
            }
        },
        Some("analyze" | "analyse") => match cli::analyze::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("analyze: {e:#}");
                ExitCode::from(2)
            }
        },
        Some("tune") => match cli::tune::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pbrain-pentad tune: {e:#}");
                ExitCode::FAILURE
            }
        },
        Some("play") => match cli::play::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("play: {e:#}");
                ExitCode::from(2)
            }
        },
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("-V" | "--version" | "version") => {
            println!("pbrain-pentad {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("pbrain-pentad: unknown argument '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
