//! Runs several futures concurrently inside the calling task, keeping their order.
//!
//! No task is spawned, so borrowed data can be used and a current-thread runtime pays
//! nothing extra; the dispatcher's semaphore bounds how many hooks actually run at once.

use std::{
    future::{Future, poll_fn},
    pin::Pin,
    task::Poll,
};

/// Awaits every future; the outputs come back in the order of the inputs.
pub(crate) async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    poll_fn(|cx| {
        let mut pending = false;
        for (f, out) in futures.iter_mut().zip(outputs.iter_mut()) {
            if out.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending { Poll::Pending } else { Poll::Ready(()) }
    })
    .await;
    outputs.into_iter().flatten().collect()
}
