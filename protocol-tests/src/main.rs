//! `protocol-tests`: runs Gomocup/Piskvork "pbrain" protocol scenarios against any engine.
//!
//! ```text
//! protocol-tests --engine "<command line>" [--dir DIR | FILE.scn …] [--filter NAME]…
//!                [--cwd DIR] [--time-scale F] [--list] [--verbose]
//! ```

/// `println!` that ignores a closed stdout (e.g. output piped into `head`).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod engine;
mod run;
mod scenario;
mod track;

use run::{Options, Outcome};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: protocol-tests --engine \"<command line>\" [--dir DIR | FILE.scn ...] [options]

  --engine CMD      the engine to test, as a command line (quotes allowed); required
  --dir DIR         run every *.scn file in DIR (default: protocol-tests/scenarios)
  FILE.scn ...      run these scenario files
  --filter NAME     only scenarios whose checklist item equals NAME (e.g. P13, R3) or whose
                    file name contains NAME; may be repeated
  --cwd DIR         working directory of the engine (default: the current directory)
  --time-scale F    multiply reply timeouts and time limits by F (slow machines); default 1
  --list            list the selected scenarios and exit
  --verbose, -v     print every line sent and received, with times

Prints one line per scenario and a last line 'N passed, M failed[, K skipped]'.
Exit code: 0 if nothing failed, 1 if a scenario failed, 2 on a usage error.";

struct Cli {
    engine: Option<String>,
    dirs: Vec<PathBuf>,
    files: Vec<PathBuf>,
    filters: Vec<String>,
    cwd: Option<PathBuf>,
    time_scale: f64,
    list: bool,
    verbose: bool,
}

fn parse_cli() -> Result<Cli, String> {
    let mut cli = Cli {
        engine: None,
        dirs: Vec::new(),
        files: Vec::new(),
        filters: Vec::new(),
        cwd: None,
        time_scale: 1.0,
        list: false,
        verbose: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--engine" | "-e" => cli.engine = Some(value("--engine")?),
            "--dir" | "-d" => cli.dirs.push(value("--dir")?.into()),
            "--filter" | "-f" => cli.filters.push(value("--filter")?),
            "--cwd" => cli.cwd = Some(value("--cwd")?.into()),
            "--time-scale" => {
                let v = value("--time-scale")?;
                cli.time_scale = v
                    .parse()
                    .ok()
                    .filter(|f: &f64| *f > 0.0 && f.is_finite())
                    .ok_or(format!("--time-scale: '{v}' is not a positive number"))?;
            }
            "--list" => cli.list = true,
            "--verbose" | "-v" => cli.verbose = true,
            "--help" | "-h" => {
                say!("{USAGE}");
                std::process::exit(0);
            }
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option {s}")),
            _ => cli.files.push(a.into()),
        }
    }
    Ok(cli)
}

fn scenario_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    v.sort();
    Ok(v)
}

fn default_dir() -> PathBuf {
    let here = PathBuf::from("protocol-tests/scenarios");
    if here.is_dir() {
        return here;
    }
    let local = PathBuf::from("scenarios");
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

struct Entry {
    path: PathBuf,
    stem: String,
    parsed: Result<scenario::Scenario, String>,
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("protocol-tests: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut paths = cli.files.clone();
    let mut dirs = cli.dirs.clone();
    if paths.is_empty() && dirs.is_empty() {
        dirs.push(default_dir());
    }
    for d in &dirs {
        match scenario_files(d) {
            Ok(v) => paths.extend(v),
            Err(e) => {
                eprintln!("protocol-tests: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut entries: Vec<Entry> = paths
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let parsed = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|text| scenario::parse(&text, &stem));
            Entry { path, stem, parsed }
        })
        .collect();

    if !cli.filters.is_empty() {
        let covers = |e: &Entry| -> Vec<String> {
            e.parsed
                .as_ref()
                .map(|s| {
                    s.covers
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .filter(|w| !w.is_empty())
                        .map(|w| w.to_ascii_lowercase())
                        .collect()
                })
                .unwrap_or_default()
        };
        let all_ids: Vec<String> = entries.iter().flat_map(covers).collect();
        let keep = |e: &Entry| {
            cli.filters.iter().any(|f| {
                let f = f.to_ascii_lowercase();
                if all_ids.contains(&f) {
                    covers(e).contains(&f)
                } else {
                    e.stem.to_ascii_lowercase().contains(&f)
                }
            })
        };
        entries.retain(keep);
    }

    if cli.list {
        for e in &entries {
            match &e.parsed {
                Ok(s) => say!("{:<44} {:<6} {}", e.stem, s.covers, s.name),
                Err(err) => say!("{:<44} parse error: {err}", e.stem),
            }
        }
        return ExitCode::SUCCESS;
    }

    let Some(engine_line) = cli.engine.as_deref() else {
        eprintln!("protocol-tests: --engine is required\n\n{USAGE}");
        return ExitCode::from(2);
    };
    let engine = match scenario::split_command_line(engine_line) {
        Ok(v) if !v.is_empty() => v,
        Ok(_) => {
            eprintln!("protocol-tests: --engine is empty");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("protocol-tests: --engine: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = Options {
        engine,
        cwd: cli.cwd.clone(),
        verbose: cli.verbose,
        time_scale: cli.time_scale,
    };

    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let width = entries.iter().map(|e| e.stem.len()).max().unwrap_or(0);
    for e in &entries {
        let t0 = Instant::now();
        let outcome = match &e.parsed {
            Ok(sc) => {
                if cli.verbose {
                    say!("== {} ({}): {}", e.stem, sc.covers, sc.name);
                }
                run::run(sc, &opts)
            }
            Err(err) => Outcome::Fail(format!("{}: {err}", e.path.display())),
        };
        let secs = t0.elapsed().as_secs_f64();
        match outcome {
            Outcome::Pass => {
                passed += 1;
                say!("ok       {:<width$}  ({secs:.2} s)", e.stem);
            }
            Outcome::Fail(m) => {
                failed += 1;
                say!("FAILED   {:<width$}  ({secs:.2} s): {m}", e.stem);
            }
            Outcome::Skip(m) => {
                skipped += 1;
                say!("skipped  {:<width$}  ({secs:.2} s): {m}", e.stem);
            }
        }
    }
    if skipped > 0 {
        say!("{passed} passed, {failed} failed, {skipped} skipped");
    } else {
        say!("{passed} passed, {failed} failed");
    }
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
