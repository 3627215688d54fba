//! The child's end of a hosted world: a [`World`] whose answers come from labgrade's world
//! host, a process of its own ([`super::world_host`]), over two pipes.
//!
//! Some worlds are the answer key: the game side's driver world knows the canonical game
//! (its legal moves, where each leads) to steer the driver from position to position, and a
//! student's `GenerateMoveList` sharing the child's address space could call those rules
//! instead of writing its own. A problem whose world is that (its [`super::KitAbi`] is
//! `hosted`) keeps it out of the child altogether: the worker starts the host beside the
//! child, with the world made from the case as the grader would make it, and the child
//! forwards every operation. Nothing of the world's code is linked here
//! (`tests/integration/worker_symbols.rs` checks the worker binary).
//!
//! The frames are five little-endian `i64`s: the operation and its four arguments. Only an
//! operation the spec marks `returns` waits for the host's answer: eight bytes, then a count
//! and that many more integers the world sends along ([`World::told`]). The others answer 0,
//! as a hosted world's must, and travel with the next frame that waits. A round trip costs
//! tens of microseconds, and the game driver asks where to step thousands of times, so a
//! world may also give the child a [`Shortcut`]: what the host told it lets the child answer
//! some questions itself, exactly as the host would (the frame still goes, marked
//! [`ANSWERED`], so the host's world sees every call). Student code can write to these
//! descriptors too: whatever it sends only confuses its own record (the host is bounded and
//! never trusts a frame), and a channel it breaks answers -1 from then on, which ends the
//! driver's walk.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;

use serde_json::Value;

use super::abi::WorldDef;
use super::world::World;

pub use crate::sandbox::world_host::{FROM_HOST_FD, TO_HOST_FD};

/// A frame's operation that once asked the host for a fresh world: ignored (only the
/// worker makes a world, from the case, when it starts the host).
pub const NEW_WORLD: i64 = -1;
/// A frame's operation asking for the world's state: the host answers its length (eight
/// bytes) and that much JSON, once; after it the host answers nothing but [`REFUSED`].
pub const STATE: i64 = -2;

/// A frame's operation asking for the calls the world could not honour
/// ([`World::refused`]): answered as [`STATE`] is, with `[count, first]` or null.
pub const REFUSED: i64 = -3;

/// Added to a frame's operation that the child answered itself ([`Shortcut`]): the host's
/// world takes the call, and sends no answer.
pub const ANSWERED: i64 = 1 << 32;

/// Bytes of one frame.
pub const FRAME: usize = 40;

/// Most integers the host sends along with one answer.
pub const MAX_TOLD: i64 = 1 << 18;

/// What lets the child answer some of a hosted world's questions itself: it sees every call
/// on its way to the host and what the host sent along with each answer, and must answer
/// exactly as the host's world would.
pub trait Shortcut: Send {
    /// A call on its way to the host.
    fn sent(&mut self, op: usize, args: &[i64]);
    /// The answer to `op`, when the child knows it.
    fn answer(&mut self, op: usize) -> Option<i64>;
    /// What the host sent along with its `answer` to `op` ([`World::told`]).
    fn told(&mut self, op: usize, words: &[i64], answer: i64);
}

/// Makes a fresh [`Shortcut`] for each call.
pub type ShortcutFactory = fn() -> Box<dyn Shortcut>;

/// Most state the child takes from the host.
const MAX_STATE: u64 = 64 << 20;

/// Frames kept before they are sent even though none waits for an answer.
const BATCH_BYTES: usize = 32 << 10;

/// One frame's bytes.
pub fn frame(op: i64, args: &[i64]) -> [u8; FRAME] {
    let mut out = [0u8; FRAME];
    out[..8].copy_from_slice(&op.to_le_bytes());
    for (i, a) in args.iter().take(4).enumerate() {
        out[8 * (i + 1)..8 * (i + 2)].copy_from_slice(&a.to_le_bytes());
    }
    out
}

/// The operation and arguments of a frame.
pub fn unframe(bytes: &[u8; FRAME]) -> (i64, [i64; 4]) {
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[8 * i..8 * (i + 1)]);
        i64::from_le_bytes(w)
    };
    (word(0), [word(1), word(2), word(3), word(4)])
}

/// The pipes to the host, and the frames not yet sent.
struct Channel {
    pending: Vec<u8>,
    broken: bool,
}

impl Channel {
    fn flush(&mut self) -> bool {
        if self.broken {
            return false;
        }
        // SAFETY: the descriptor is the worker's pipe, kept open for the child's life; the
        // File is never dropped, so it is never closed here.
        let mut out = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(TO_HOST_FD) });
        self.broken = out.write_all(&self.pending).is_err();
        self.pending.clear();
        !self.broken
    }

    fn read(&mut self, buf: &mut [u8]) -> bool {
        if self.broken {
            return false;
        }
        // SAFETY: as in `flush`.
        let mut input = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(FROM_HOST_FD) });
        self.broken = input.read_exact(buf).is_err();
        !self.broken
    }

    fn word(&mut self) -> Option<i64> {
        let mut word = [0u8; 8];
        self.read(&mut word).then(|| i64::from_le_bytes(word))
    }

    /// Sends what is pending and reads eight bytes back.
    fn ask(&mut self) -> Option<i64> {
        if !self.flush() {
            return None;
        }
        self.word()
    }

    /// The integers the host sends along with an answer.
    fn told(&mut self) -> Option<Vec<i64>> {
        let n = self.word().filter(|n| (0..=MAX_TOLD).contains(n))?;
        (0..n).map(|_| self.word()).collect()
    }
}

/// A world served by the host.
pub struct RemoteWorld {
    def: &'static WorldDef,
    channel: RefCell<Channel>,
    shortcut: Option<Box<dyn Shortcut>>,
}

impl RemoteWorld {
    /// The child's end of a fresh hosted world of `def`.
    pub fn connect(def: &'static WorldDef, shortcut: Option<ShortcutFactory>) -> RemoteWorld {
        RemoteWorld {
            def,
            channel: RefCell::new(Channel {
                pending: Vec::new(),
                broken: false,
            }),
            shortcut: shortcut.map(|make| make()),
        }
    }
}

impl World for RemoteWorld {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let channel = self.channel.get_mut();
        let returns = self.def.ops.get(op).is_some_and(|o| o.returns);
        if let Some(s) = self.shortcut.as_mut() {
            s.sent(op, args);
        }
        let known = if returns {
            self.shortcut.as_mut().and_then(|s| s.answer(op))
        } else {
            Some(0)
        };
        let marked = if returns && known.is_some() {
            op as i64 + ANSWERED
        } else {
            op as i64
        };
        channel.pending.extend_from_slice(&frame(marked, args));
        if let Some(answer) = known {
            if channel.pending.len() >= BATCH_BYTES {
                channel.flush();
            }
            return answer;
        }
        let Some(answer) = channel.ask() else {
            return -1;
        };
        match channel.told() {
            Some(words) => {
                if let Some(s) = self.shortcut.as_mut() {
                    s.told(op, &words, answer);
                }
                answer
            }
            None => {
                channel.broken = true;
                -1
            }
        }
    }

    fn state(&self) -> Value {
        self.ask_json(STATE)
    }

    fn refused(&self) -> Option<(u64, String)> {
        let (count, first) = serde_json::from_value(self.ask_json(REFUSED)).ok()?;
        Some((count, first))
    }

    fn lost(&self) -> bool {
        self.channel.borrow().broken
    }
}

impl RemoteWorld {
    /// Asks the host a question answered in JSON ([`STATE`], [`REFUSED`]).
    fn ask_json(&self, op: i64) -> Value {
        let mut channel = self.channel.borrow_mut();
        channel.pending.extend_from_slice(&frame(op, &[]));
        // The length comes as an answer with nothing told beside it.
        let Some(len) = channel.ask().and_then(|n| u64::try_from(n).ok()) else {
            return Value::Null;
        };
        if len > MAX_STATE {
            channel.broken = true;
            return Value::Null;
        }
        let mut bytes = vec![0u8; len as usize];
        if !channel.read(&mut bytes) {
            return Value::Null;
        }
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip() {
        let bytes = frame(7, &[-1, 2, i64::MAX]);
        assert_eq!(unframe(&bytes), (7, [-1, 2, i64::MAX, 0]));
        assert_eq!(unframe(&frame(STATE, &[])), (STATE, [0; 4]));
    }
}
