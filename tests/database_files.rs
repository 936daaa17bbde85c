//! The Yixin-Board database file, with the engine run as a black box: it survives the engine
//! being killed (SIGKILL) while it writes the file — the file read back afterwards is whole, the
//! old one or the new one, never a mix — and a file that does not read is reported in one line
//! and left alone.

use pentad::board::Board;
use pentad::database::{Database, Mask, Record, BOUND_EXACT, LABEL_NONE};
use pentad::rules::Rule;
use std::io::Read;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Records in the file: large enough that a save takes a while, so that kills land inside one.
const RECORDS: usize = 60_000;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pentad-db-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A database of `RECORDS` random ten-stone positions.
fn big_database() -> Database {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut db = Database::default();
    let empty = Board::square(15, Rule::Freestyle).unwrap();
    for i in 0..RECORDS {
        let mut b = empty.clone();
        while b.stone_count() < 10 {
            let p = b
                .pos((rng.next() % 15) as i64, (rng.next() % 15) as i64)
                .unwrap();
            if b.is_empty(p) {
                b.play(p);
            }
        }
        let r = Record {
            label: LABEL_NONE,
            value: i as i32,
            depth: 1,
            bound: BOUND_EXACT,
            ..Record::default()
        };
        db.edit(&b, &r, Mask(7));
    }
    db
}

#[test]
fn a_database_killed_while_it_is_saved_reads_back_whole() {
    let dir = scratch();
    let path = dir.join("kill.db");
    let tmp = dir.join("kill.db.tmp");
    let db = big_database();
    let before = db.len();
    assert!(before > RECORDS * 99 / 100);
    std::fs::write(&path, db.to_bytes()).unwrap();
    let mut mid_save = 0;
    for round in 0..30 {
        let _ = std::fs::remove_file(&tmp);
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let mut input = child.stdin.take().unwrap();
        let mut script = format!(
            "START 15\nINFO usedatabase 1\nYXSETDATABASE {}\n",
            path.display()
        );
        // Every edit saves the whole database.
        for k in 0..200 {
            script.push_str(&format!(
                "YXEDITTVDDATABASE 7 87 -29990 {k}\n7,7\n{},{}\nDONE\n",
                k % 15,
                k / 15
            ));
        }
        // The pipe may fill while the engine saves: write from another thread.
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(script.as_bytes());
            input
        });
        std::thread::sleep(Duration::from_millis(150 + 37 * (round % 7)));
        child.kill().expect("kill the engine");
        child.wait().unwrap();
        drop(writer.join());
        // A temporary file left behind means the kill came in the middle of a save.
        if tmp.exists() {
            mid_save += 1;
        }
        let bytes = std::fs::read(&path).expect("the database file is there");
        let back = Database::parse(&bytes).expect("the database reads whole");
        assert!(
            back.len() >= before,
            "round {round}: {} records",
            back.len()
        );
        if mid_save >= 3 {
            break;
        }
    }
    assert!(mid_save > 0, "no kill landed during a save");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_database_file_is_one_error_line_and_stays_as_it_was() {
    let dir = std::env::temp_dir().join(format!("pentad-db-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut db = Database::default();
    let mut b = Board::square(15, Rule::Freestyle).unwrap();
    b.play(b.pos(7, 7).unwrap());
    db.edit(&b, &Record::labelled(LABEL_NONE), Mask(1));
    let mut damaged = db.to_bytes();
    damaged.truncate(damaged.len() - 3);
    for (name, bytes) in [
        ("truncated.db", damaged),
        ("foreign.db", b"GIF89a this is a picture".to_vec()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-pentad"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let script = format!(
            "START 15\nINFO usedatabase 1\nYXSETDATABASE {}\nyxquerydatabaseall\n7,7\ndone\n\
             yxedittvddatabase 7 87 0 1\n7,7\ndone\nyxsavedatabase\nEND\n",
            path.display()
        );
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(child.wait().unwrap().success());
        let lines: Vec<&str> = out.lines().collect();
        let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("ERROR")).collect();
        // One line for the file; the save asked for afterwards says the database is off.
        assert_eq!(errors.len(), 2, "{name}: {out}");
        assert!(errors[0].contains("not read"), "{name}: {out}");
        assert!(
            errors[1].starts_with("ERROR YXSAVEDATABASE"),
            "{name}: {out}"
        );
        assert_eq!(lines.len(), 3, "{name}: OK and the two errors only: {out}");
        assert!(err.is_empty());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{name} left as it was"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
