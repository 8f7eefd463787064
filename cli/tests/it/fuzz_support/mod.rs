//! Shared by the seeded fuzz tests: a deterministic generator and the run
//! settings (`VIBE_FUZZ_ITERS`, `VIBE_FUZZ_SEED`).

/// xorshift64*: deterministic, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Iterations and seed of a run, from the environment or the defaults.
pub fn settings(default_iters: usize, default_seed: u64) -> (usize, u64) {
    let iters = std::env::var("VIBE_FUZZ_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(default_iters);
    let seed = std::env::var("VIBE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(default_seed);
    (iters, seed)
}
