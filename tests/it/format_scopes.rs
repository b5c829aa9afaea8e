//! Trust by scope for the formats of issue 19 (Codex, Gemini CLI, Copilot CLI, Windsurf),
//! through `hooks list` and `hooks fire`: a user's file runs on every surface; a
//! repository's file stays inert on a command-line run until the run's posture is known to
//! auto-approve (Codex files also need a review: `hooks trust`).

use serde_json::{Value, json};

use crate::{cli::hooks_in, support::TestDir};

/// One format: its project file, its user file (under the config dir) and a hook body that
/// writes `ran-<scope>` in the project (each agent's documented style: a command run through
/// the shell, stdin ignored).
struct Case {
    name: &'static str,
    project: &'static str,
    user: &'static str,
    file: fn(&str) -> String,
}

fn gemini(cmd: &str) -> String {
    json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": cmd}]}]}}).to_string()
}

fn copilot(cmd: &str) -> String {
    json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": cmd}]}}).to_string()
}

fn windsurf(cmd: &str) -> String {
    json!({"hooks": {"pre_run_command": [{"command": cmd}]}}).to_string()
}

fn codex(cmd: &str) -> String {
    json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd}]}]}}).to_string()
}

const CASES: [Case; 4] = [
    Case {
        name: "gemini",
        project: ".gemini/settings.json",
        user: ".gemini/settings.json",
        file: gemini,
    },
    Case {
        name: "copilot",
        project: ".github/hooks/p.json",
        user: ".copilot/hooks/u.json",
        file: copilot,
    },
    Case {
        name: "windsurf",
        project: ".windsurf/hooks.json",
        user: ".codeium/windsurf/hooks.json",
        file: windsurf,
    },
    Case { name: "codex", project: ".codex/hooks.json", user: ".codex/hooks.json", file: codex },
];

/// `trust.decision` of each listed source, by its kind's scope (`project` or `user`).
fn decisions(out: &[u8]) -> Vec<(String, String)> {
    let inv: Value = serde_json::from_slice(out).expect("list --json");
    inv["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|s| {
            let kind = s["kind"].as_str().unwrap_or_default();
            let scope = if kind.starts_with("project") { "project" } else { "user" };
            (scope.to_owned(), s["trust"]["decision"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

#[test]
fn each_formats_project_files_wait_for_the_posture_and_user_files_run() {
    for case in CASES {
        let repo = TestDir::new();
        let cfg = TestDir::new();
        repo.write(case.project, &(case.file)("touch ran-project"));
        cfg.write(case.user, &(case.file)(&format!("touch {}/ran-user", repo.path().display())));
        let cfgp = cfg.path().to_str().expect("utf-8");
        let list = |extra: &[&str]| {
            let args =
                [&["list", "--root", ".", "--config-dir", cfgp, "--json"][..], extra].concat();
            decisions(&hooks_in(repo.path(), &args, "").stdout)
        };
        // Codex reviews user and project files before running them, so both wait for
        // `hooks trust` (codex_e2e covers that step); the others trust by scope alone.
        let reviewed = case.name == "codex";
        let user_want = if reviewed { "inert" } else { "active" };
        let pair = |scope: &str, d: &str| (scope.to_owned(), d.to_owned());
        let unknown = list(&[]);
        assert!(unknown.contains(&pair("project", "inert")), "{}: {unknown:?}", case.name);
        assert!(unknown.contains(&pair("user", user_want)), "{}: {unknown:?}", case.name);
        let approving = list(&["--posture", "auto-approves"]);
        assert!(approving.contains(&pair("project", user_want)), "{}: {approving:?}", case.name);
        assert!(approving.contains(&pair("user", user_want)), "{}: {approving:?}", case.name);

        // Fired without a posture: the user's hook runs, the repository's does not.
        let payload = json!({"cwd": repo.path(),
            "tool": {"name": "run_shell_command", "kind": "shell", "args": {"command": "ls"}}});
        let fire = ["fire", "pre_tool_use", "--root", ".", "--config-dir", cfgp, "--payload", "-"];
        let out = hooks_in(repo.path(), &fire, &payload.to_string());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&out.stderr)
        );
        let user_ran = repo.path().join("ran-user").exists();
        // Codex's user files need a review as well (Codex requires one), so none of its ran.
        assert_eq!(user_ran, !reviewed, "{}: the user's hook", case.name);
        assert!(
            !repo.path().join("ran-project").exists(),
            "{}: the repository's hook ran",
            case.name
        );
    }
}
