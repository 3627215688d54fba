//! Weiss' probabilistic primality test (seed 001, Figure 10.62): `power` computes
//! a^p mod n by recursive squaring and watches for a non-trivial square root of 1;
//! `test_prime` draws one witness with `rand_int(2, n - 2)` and runs it.
//!
//! The figure is pseudocode transcribed with slips: `if (p = 0)`, `if ((*result = 1) && ...)`
//! and `if ((p % 2) = 1)` are comparisons, and `| |` is `||`. This is the algorithm the text
//! describes: `==` everywhere, and x * x computed without overflow ("we are assuming very
//! large integers"), so n may be any value that fits 32 bits.

use crate::kit::Probe;

/// `PROBABLY_PRIME`, 0 in `enum test_result`.
pub const PROBABLY_PRIME: i64 = 0;
/// `DEFINITELY_COMPOSITE`, 1 in `enum test_result`.
pub const DEFINITELY_COMPOSITE: i64 = 1;

/// `power(a, p, n, &result, &whatnis)`: returns `result` and updates `whatnis`.
pub fn power(probe: &mut dyn Probe, a: u32, p: u32, n: u32, whatnis: &mut i64) -> u32 {
    probe.enter("power", format_args!("{a}, {p}, {n}"));
    let result;
    if p == 0 {
        result = 1;
    } else {
        let x = power(probe, a, p / 2, n, whatnis);
        let mut r = (u64::from(x) * u64::from(x) % u64::from(n)) as u32;
        if r == 1 && x != 1 && x != n - 1 {
            *whatnis = DEFINITELY_COMPOSITE;
        }
        if p % 2 == 1 {
            r = (u64::from(r) * u64::from(a) % u64::from(n)) as u32;
        }
        result = r;
    }
    probe.exit("power");
    result
}

/// `test_prime(n)`, drawing its witness from `rand_int`.
pub fn test_prime(probe: &mut dyn Probe, n: u32, rand_int: &mut dyn FnMut(i64, i64) -> i64) -> i64 {
    probe.enter("test_prime", format_args!("{n}"));
    let a = rand_int(2, i64::from(n) - 2) as u32;
    let mut whatnis = PROBABLY_PRIME;
    let result = power(probe, a, n - 1, n, &mut whatnis);
    let verdict = if result != 1 || whatnis == DEFINITELY_COMPOSITE {
        DEFINITELY_COMPOSITE
    } else {
        PROBABLY_PRIME
    };
    probe.exit("test_prime");
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    fn verdict(n: u32, a: i64) -> i64 {
        test_prime(&mut Silent, n, &mut |_, _| a)
    }

    fn is_prime(n: u32) -> bool {
        n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
    }

    #[test]
    fn primes_are_probably_prime_for_every_witness() {
        for n in [5u32, 7, 11, 13, 101, 65_521, 2_147_483_647, 4_294_967_291] {
            for a in [2, 3, i64::from(n) - 2] {
                assert_eq!(verdict(n, a), PROBABLY_PRIME, "{n} with {a}");
            }
        }
    }

    /// Every composite below 2,000 is caught by some witness, and no prime ever is: the
    /// square-root test is what catches Carmichael numbers, whose Fermat test passes.
    #[test]
    fn a_witness_exists_for_every_composite() {
        for n in 5u32..2000 {
            let caught = (2..=i64::from(n) - 2).any(|a| verdict(n, a) == DEFINITELY_COMPOSITE);
            assert_eq!(caught, !is_prime(n), "{n}");
        }
    }

    #[test]
    fn carmichael_561_passes_fermat_but_not_the_square_root_test() {
        // 2^560 = 1 (mod 561): Fermat alone says prime; on the way, 2^140 = 67 is a square
        // root of 1 other than 1 and 560.
        let mut whatnis = PROBABLY_PRIME;
        assert_eq!(power(&mut Silent, 2, 560, 561, &mut whatnis), 1);
        assert_eq!(whatnis, DEFINITELY_COMPOSITE);
        // 50 fools both tests: one witness is only probably right, as the text says.
        assert_eq!(verdict(561, 50), PROBABLY_PRIME);
    }

    #[test]
    fn power_recursion_depth_is_the_bits_of_p_plus_one() {
        let mut t = Tally::new(0);
        let mut w = PROBABLY_PRIME;
        assert_eq!(power(&mut t, 3, 200, 1000, &mut w), modpow(3, 200, 1000));
        assert_eq!(t.calls_of("power"), 9); // 200 has 8 bits, plus the p = 0 call
        assert_eq!(t.max_depth["power"], 9);
    }

    fn modpow(a: u64, p: u64, n: u64) -> u32 {
        (0..p).fold(1u64, |r, _| r * a % n) as u32
    }
}
