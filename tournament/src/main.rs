//! `pentad-tournament`: a Gomocup-style match runner for pbrain engines (see README.md).

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format_timestamp_millis()
        .init();
    let cli =
        tournament::run::Cli::parse_from_args(std::env::args_os()).unwrap_or_else(|e| e.exit());
    match tournament::run::main_with(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("pentad-tournament: {e:#}");
            std::process::exit(2);
        }
    }
}
