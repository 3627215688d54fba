//! The Slurm recipe (`deploy/slurm`) for real, opt-in: with `LABGRADE_SLURM_TESTS=1`, as
//! root, it installs Slurm and MUNGE from the distribution's packages if `slurmctld` is
//! missing, starts a one-node cluster of its own (munged, slurmctld, slurmd, all in a
//! temporary directory, on ports 6917-6918, through `SLURM_CONF`: nothing under /etc is
//! changed), grades a class as a job array of three shards and a dependent merge job with
//! `deploy/slurm/submit.sh`, and compares the merged output with one `labgrade grade` run.
//! Every daemon it started is stopped at the end, also when it fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::shard::{assert_same_output, write_class, Same, CLASS};
use crate::util::*;

/// Runs `sh -c script`, returns (success, stdout + stderr).
fn sh(script: &str, env: &[(&str, &Path)]) -> (bool, String) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run sh");
    (
        out.status.success(),
        format!("{}{}", stdout(&out), stderr(&out)),
    )
}

/// Why this machine cannot run the test, if it cannot.
fn cannot_run() -> Option<String> {
    if std::env::var_os("LABGRADE_SLURM_TESTS").is_none() {
        return Some("set LABGRADE_SLURM_TESTS=1 to run it (it installs Slurm if missing)".into());
    }
    let (_, uid) = sh("id -u", &[]);
    if uid.trim() != "0" {
        return Some("it must run as root (slurmd and apt-get)".into());
    }
    None
}

/// Installs slurm-wlm and munge with apt-get when `slurmctld` is missing.
fn install_slurm() {
    let (found, _) = sh("command -v slurmctld && command -v munged", &[]);
    if found {
        return;
    }
    let (ok, log) = sh(
        "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge",
        &[],
    );
    assert!(ok, "installing Slurm failed:\n{log}");
}

/// A one-node cluster; dropping it cancels its jobs and stops its daemons.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
    jobs: Vec<String>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let run = dir.join("run");
        for d in ["run", "state", "spool"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        sh(&format!("chmod 755 '{}'", run.display()), &[]);
        let key = dir.join("munge.key");
        let (ok, log) = sh(
            &format!(
                "dd if=/dev/urandom of='{0}' bs=1024 count=1 2>/dev/null && chmod 600 '{0}'",
                key.display()
            ),
            &[],
        );
        assert!(ok, "{log}");
        let socket = run.join("munge.sock");
        let (_, host) = sh("hostname -s", &[]);
        let host = host.trim().to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=labgrade-test\n\
                 SlurmctldHost={host}(127.0.0.1)\n\
                 SlurmctldPort=6917\n\
                 SlurmdPort=6918\n\
                 SlurmUser=root\n\
                 SlurmdUser=root\n\
                 AuthType=auth/munge\n\
                 CredType=cred/munge\n\
                 AuthInfo=socket={socket}\n\
                 StateSaveLocation={d}/state\n\
                 SlurmdSpoolDir={d}/spool\n\
                 SlurmctldPidFile={d}/run/slurmctld.pid\n\
                 SlurmdPidFile={d}/run/slurmd.pid\n\
                 SlurmctldLogFile={d}/slurmctld.log\n\
                 SlurmdLogFile={d}/slurmd.log\n\
                 ProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\n\
                 SelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_CPU\n\
                 SchedulerType=sched/backfill\n\
                 JobAcctGatherType=jobacct_gather/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 MpiDefault=none\n\
                 ReturnToService=2\n\
                 NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
                 PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
                socket = socket.display(),
            ),
        )
        .unwrap();
        let mut cluster = Cluster {
            dir: dir.to_path_buf(),
            conf,
            daemons: Vec::new(),
            jobs: Vec::new(),
        };
        let spawn = |cluster: &mut Cluster, name: &'static str, cmd: &mut Command| {
            let log = std::fs::File::create(cluster.dir.join(format!("{name}.out"))).unwrap();
            let child = cmd
                .env("SLURM_CONF", &cluster.conf)
                .stdin(Stdio::null())
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
            cluster.daemons.push((name, child));
        };
        spawn(
            &mut cluster,
            "munged",
            Command::new("munged")
                .args(["--foreground", "--force"])
                .arg(format!("--socket={}", socket.display()))
                .arg(format!("--key-file={}", key.display()))
                .arg(format!("--log-file={d}/munged.log"))
                .arg(format!("--pid-file={d}/run/munged.pid"))
                .arg(format!("--seed-file={d}/munged.seed")),
        );
        cluster.wait_for("munged", || socket.exists());
        // -i: ignore any state (there is none: a fresh directory).
        spawn(
            &mut cluster,
            "slurmctld",
            Command::new("slurmctld").args(["-D", "-i"]),
        );
        spawn(&mut cluster, "slurmd", Command::new("slurmd").args(["-D"]));
        cluster.wait_for("the node to be idle", || {
            let (ok, out) = cluster.slurm("sinfo -h -o %t");
            ok && out.trim() == "idle"
        });
        cluster
    }

    /// Runs a Slurm command line against this cluster.
    fn slurm(&self, script: &str) -> (bool, String) {
        sh(script, &[("SLURM_CONF", &self.conf)])
    }

    /// Waits up to a minute for `ready`, failing with the daemons' logs.
    fn wait_for(&self, what: &str, ready: impl Fn() -> bool) {
        self.wait_up_to(Duration::from_secs(60), what, ready);
    }

    fn wait_up_to(&self, limit: Duration, what: &str, ready: impl Fn() -> bool) {
        let start = Instant::now();
        while !ready() {
            assert!(
                start.elapsed() < limit,
                "gave up waiting for {what} after {limit:?}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// The end of every log in the cluster's directory and under `more`.
    fn logs(&self) -> String {
        let (_, s) = sh(
            &format!(
                "for f in '{}'/*.out '{}'/*.log; do [ -f \"$f\" ] && echo \"== $f\" && tail -n 25 \"$f\"; done",
                self.dir.display(),
                self.dir.display()
            ),
            &[],
        );
        s
    }

    /// The state of a job (`COMPLETED`, `PENDING`, ...), as `scontrol` tells it.
    fn job_state(&self, id: &str) -> String {
        let (_, out) = self.slurm(&format!("scontrol -o show job {id}"));
        out.split_whitespace()
            .find_map(|w| w.strip_prefix("JobState="))
            .unwrap_or("UNKNOWN")
            .to_string()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if !self.jobs.is_empty() {
            self.slurm(&format!("scancel {}", self.jobs.join(" ")));
            std::thread::sleep(Duration::from_secs(1));
        }
        // slurmd first (its job steps end with it), then the controller, then MUNGE: each
        // asked to stop (SIGTERM), killed if it has not within 10 seconds.
        for (_, child) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let start = Instant::now();
            while matches!(child.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_slurm_recipe_grades_a_class_as_one_run_does() {
    if let Some(why) = cannot_run() {
        println!("SKIPPED the Slurm recipe test: {why}");
        return;
    }
    install_slurm();
    let tmp = tempfile::tempdir().unwrap();
    let (class, roster) = write_class(tmp.path());
    let mut cluster = Cluster::start(&tmp.path().join("slurm"));

    // The jobs grade into a cache of their own, which the one-machine run then reuses.
    let cache = tmp.path().join("cache");
    let out = tmp.path().join("out");
    let submit = repo().join("deploy/slurm/submit.sh");
    let (ok, said) = sh(
        &format!(
            "cd '{}' && '{}' nim '{}' '{}' 3 --roster '{}' --all-formats --csv-cases",
            repo().display(),
            submit.display(),
            class.display(),
            out.display(),
            roster.display()
        ),
        &[
            ("SLURM_CONF", &cluster.conf),
            ("LABGRADE", &labgrade_bin()),
            ("LABGRADE_CACHE", &cache),
        ],
    );
    assert!(ok, "submit.sh failed:\n{said}\n{}", cluster.logs());
    // "array 2, merge 3"
    let ids: Vec<String> = said
        .trim()
        .replace(',', "")
        .split_whitespace()
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .map(String::from)
        .collect();
    assert_eq!(ids.len(), 2, "{said}");
    cluster.jobs = ids.clone();
    let merge = &ids[1];
    let logs = || {
        let (_, s) = sh(
            &format!(
                "for f in '{}'/logs/*; do echo \"== $f\"; tail -n 30 \"$f\"; done",
                out.display()
            ),
            &[],
        );
        format!("{s}\n{}", cluster.logs())
    };
    let start = Instant::now();
    loop {
        let state = cluster.job_state(merge);
        match state.as_str() {
            "COMPLETED" => break,
            "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" => {}
            other => panic!("the merge job ended {other}\n{}", logs()),
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the jobs did not finish in 5 minutes (merge job {state})\n{}",
            logs()
        );
        std::thread::sleep(Duration::from_secs(1));
    }
    println!(
        "slurm: array job {} (3 shards) and merge job {merge} done in {:.1} s",
        ids[0],
        start.elapsed().as_secs_f64()
    );
    for i in 1..=3 {
        assert!(
            out.join(format!("shard-{i}/shard.json")).is_file(),
            "shard {i} wrote no shard.json\n{}",
            logs()
        );
    }
    let merged = out.join("merged");
    let merge_log = std::fs::read_to_string(out.join("logs/merge.log")).unwrap_or_default();
    assert!(
        merge_log.contains(&format!(
            "merged 3 shard(s) of nim: wrote {} report(s)",
            CLASS.len()
        )),
        "{merge_log}"
    );

    let grade = |dir: &Path, force: bool| {
        let mut args = vec![
            "grade",
            "nim",
            class.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--roster",
            roster.to_str().unwrap(),
            "--all-formats",
            "--csv-cases",
        ];
        if force {
            args.push("--force");
        }
        let o = labgrade_with_cache(&args, &cache);
        assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
        o
    };
    // One run on this machine, reusing the jobs' results: the merged files to the byte.
    let one = tmp.path().join("one");
    let o = grade(&one, false);
    assert!(
        stdout(&o).contains(&format!("reused {0} of {0}", CLASS.len())),
        "{}",
        stdout(&o)
    );
    assert_same_output(&one, &merged, Same::Bytes);
    // And graded again from nothing: the same grades.
    let again = tmp.path().join("again");
    grade(&again, true);
    assert_same_output(&again, &merged, Same::Grades);
    drop(cluster);
}
