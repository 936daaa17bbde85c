use pentad::*;
fn main() {
    let b0 = pentad::bench::position(Rule::Freestyle, 15, "h8h9i9g7j10k11i7i8g8");
    let mut b = b0.clone();
    let moves: Vec<Pos> = b.candidates().collect();
    let t = std::time::Instant::now();
    let mut n = 0u64;
    for _ in 0..20000 {
        for &m in &moves { b.play(m); b.undo(); n += 1; }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{n} make+undo in {s:.3}s = {:.2} M/s", n as f64 / s / 1e6);
}
