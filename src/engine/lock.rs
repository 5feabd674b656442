//! The lock of a fight's state. A fight runs on one thread at a time: its state is
//! taken and let go some 1,700 times in a shipped duel and never waited for, so what
//! counts is the price of an uncontended lock. parking_lot's mutex pays a locked
//! instruction to take it and another to let it go (about 8 ns a pair on the
//! development machine, a quarter of a duel's time); this one pays for taking it only,
//! letting go being a plain store. A second thread that finds it taken (a script
//! reading the fight from elsewhere) yields until it is free.

use std::sync::atomic::{AtomicBool, Ordering};

/// A lock whose release is a store ([`lock_api::RawMutex`]).
pub struct RawStateLock(AtomicBool);

// SAFETY: `lock` and `try_lock` take the flag with an acquiring compare-and-swap and
// `unlock` clears it with a releasing store, so one holder at a time sees the data,
// and each holder sees what the one before wrote.
unsafe impl lock_api::RawMutex for RawStateLock {
    #[allow(clippy::declare_interior_mutable_const)]
    const INIT: Self = RawStateLock(AtomicBool::new(false));
    type GuardMarker = lock_api::GuardNoSend;

    #[inline]
    fn lock(&self) {
        while !self.try_lock() {
            while self.0.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
        }
    }

    #[inline]
    fn try_lock(&self) -> bool {
        self.0
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    #[inline]
    unsafe fn unlock(&self) {
        self.0.store(false, Ordering::Release);
    }
}

/// A fight's state behind its lock.
pub type StateLock<T> = lock_api::Mutex<RawStateLock, T>;
/// The fight's state, held.
pub type StateGuard<'a, T> = lock_api::MutexGuard<'a, RawStateLock, T>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads that take the lock in turn lose none of each other's writes: the
    /// lock excludes, and a release is seen by the next taker.
    #[test]
    fn two_threads_taking_the_lock_lose_no_write() {
        let counter = std::sync::Arc::new(StateLock::new(0u64));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let counter = std::sync::Arc::clone(&counter);
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        *counter.lock() += 1;
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("the thread ran");
        }
        assert_eq!(*counter.lock(), 40_000);
    }

    /// A lock held is refused to a second taker until let go.
    #[test]
    fn a_held_lock_is_refused_until_let_go() {
        let lock = StateLock::new(());
        let held = lock.lock();
        assert!(lock.try_lock().is_none());
        drop(held);
        assert!(lock.try_lock().is_some());
    }
}
