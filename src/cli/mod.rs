//! The subcommands for people and scripts: each declares its options as a clap `Args` struct,
//! calls the engine library and prints. None of them reaches into the protocol front end.

use pentad::rules::Rule;

pub mod analyze;
pub mod bench;
pub mod book;
pub mod play;
pub mod puzzles;
pub mod tune;
pub mod tune_policy;

/// `--rule NAME|NUMBER`: a rule's name or its Gomocup `INFO rule` number.
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    Rule::parse(s).ok_or_else(|| {
        format!("unknown rule '{s}' (freestyle, standard, renju, caro, caro9 or a number)")
    })
}

/// `--size N|WxH`: a square side or width and height (`20x15`, `20,15`).
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s.split_once(['x', 'X', ',']).unwrap_or((s, s));
    match (w.trim().parse(), h.trim().parse()) {
        (Ok(w), Ok(h)) => Ok((w, h)),
        _ => Err("expected N or WxH".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_and_sizes() {
        assert_eq!(parse_rule("Renju"), Ok(Rule::Renju));
        assert_eq!(parse_rule("4"), Ok(Rule::Renju));
        assert!(parse_rule("chess").is_err());
        assert_eq!(parse_size("20x15"), Ok((20, 15)));
        assert_eq!(parse_size("20,15"), Ok((20, 15)));
        assert_eq!(parse_size("19"), Ok((19, 19)));
        assert!(parse_size("x").is_err());
        assert!(parse_size("").is_err());
    }
}
