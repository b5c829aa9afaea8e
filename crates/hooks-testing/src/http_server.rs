//! A tiny HTTP/1.1 server on 127.0.0.1 for tests of HTTP hooks: it records each request and
//! answers as the test scripts it. It stops when dropped (a held answer is released then).
//!
//! Plain `std::net` on its own thread, so blocking tests and async tests (any runtime) can both
//! use it. One request per connection (it answers with `Connection: close`).

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpListener, TcpStream},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    thread::JoinHandle,
};

/// One request as the server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `POST`, `GET`, …
    pub method: String,
    /// The request target (`/hook?x=1`).
    pub path: String,
    /// Header names (lowercased) and values, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body (as announced by `Content-Length`).
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }
}

/// How the server answers one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A status, a `Content-Type` and a body.
    Reply {
        /// The status code.
        status: u16,
        /// The `Content-Type` header.
        content_type: String,
        /// The body.
        body: Vec<u8>,
    },
    /// A redirect to another location (the status is 302).
    Redirect(String),
    /// No answer until the server is dropped (a hook's timeout must end the wait).
    Hold,
}

impl Answer {
    /// A JSON answer with this status.
    pub fn json(status: u16, body: &serde_json::Value) -> Answer {
        Answer::Reply {
            status,
            content_type: "application/json".to_owned(),
            body: body.to_string().into_bytes(),
        }
    }

    /// A plain-text answer with this status.
    pub fn text(status: u16, body: &str) -> Answer {
        Answer::Reply {
            status,
            content_type: "text/plain".to_owned(),
            body: body.as_bytes().to_vec(),
        }
    }
}

type Script = dyn Fn(&Request) -> Answer + Send + Sync;

/// The server. See the module docs.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    release: Option<mpsc::Sender<()>>,
    requests: Arc<Mutex<Vec<Request>>>,
    received: mpsc::Receiver<Request>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server on an ephemeral port of 127.0.0.1 that answers with `script`.
    pub fn start(script: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let stop = Arc::new(AtomicBool::new(false));
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (tx, received) = mpsc::channel();
        let script: Arc<Script> = Arc::new(script);
        let thread = {
            let stop = stop.clone();
            let requests = requests.clone();
            std::thread::spawn(move || {
                let mut workers = Vec::new();
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let (script, requests, tx, release) =
                        (script.clone(), requests.clone(), tx.clone(), release_rx.clone());
                    workers.push(std::thread::spawn(move || {
                        serve(conn, &*script, &requests, &tx, &release);
                    }));
                }
                for w in workers {
                    let _ = w.join();
                }
            })
        };
        Server { addr, stop, release: Some(release_tx), requests, received, thread: Some(thread) }
    }

    /// Always answers with `answer`.
    pub fn answering(answer: Answer) -> Server {
        Server::start(move |_| answer.clone())
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Waits for the next request (at most `bound`, a failure bound, not a pause).
    pub fn next_request(&self, bound: std::time::Duration) -> Option<Request> {
        self.received.recv_timeout(bound).ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Releases every held answer (their receivers see the sender gone).
        drop(self.release.take());
        // Wakes the accept loop.
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A 127.0.0.1 URL nobody listens on (a port bound and released): connecting is refused.
pub fn refused_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local address");
    drop(listener);
    format!("http://{addr}/refused")
}

fn serve(
    conn: TcpStream,
    script: &Script,
    requests: &Mutex<Vec<Request>>,
    tx: &mpsc::Sender<Request>,
    release: &Mutex<mpsc::Receiver<()>>,
) {
    // A failure bound: a client that connects and never sends cannot keep the server alive.
    let _ = conn.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let Ok(read_half) = conn.try_clone() else { return };
    let mut reader = BufReader::new(read_half);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            break;
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; len.min(16 * 1024 * 1024)];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let req = Request { method, path, headers, body };
    requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(req.clone());
    let answer = script(&req);
    let _ = tx.send(req);
    let mut conn = conn;
    let (status, extra, content_type, body) = match answer {
        Answer::Reply { status, content_type, body } => (status, String::new(), content_type, body),
        Answer::Redirect(to) => {
            (302, format!("Location: {to}\r\n"), "text/plain".to_owned(), vec![])
        }
        Answer::Hold => {
            // Blocks until the server is dropped (the sender goes away).
            let rx = release.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let _ = rx.recv();
            return;
        }
    };
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = conn.write_all(head.as_bytes());
    let _ = conn.write_all(&body);
    let _ = conn.flush();
}
