//! The organisers' evaluator's scores: every vector of `score_vectors.json` and the sample.

use std::collections::BTreeMap;

use serde::Deserialize;
use tessera_hextris::Phrases;
use tessera_hextris::judge::score;

use crate::{data, problem};

#[derive(Deserialize)]
struct Vector {
    #[serde(rename = "problemId")]
    problem_id: usize,
    seed: u32,
    solution: String,
    move_score: u64,
    power_score: u64,
    score: u64,
    error: Option<String>,
    evaluator_error: String,
    end_state: String,
    commands: usize,
    locked: usize,
    phrases: Vec<String>,
    phrase_counts: BTreeMap<String, usize>,
    lines_cleared: usize,
    line_bonus: u64,
    note: Option<String>,
}

fn name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).unwrap().as_str().unwrap_or("").to_string()
}

#[test]
fn every_score_vector_is_reproduced() {
    let text = std::fs::read_to_string(data("tests/data/score_vectors.json")).unwrap();
    let vectors: Vec<Vector> = serde_json::from_str(&text).unwrap();
    assert_eq!(vectors.len(), 383);
    let problems: Vec<_> = (0..25).map(problem).collect();
    let phrases = Phrases::official();
    let mut wrong = Vec::new();
    for (i, v) in vectors.iter().enumerate() {
        let got = score(&problems[v.problem_id], v.seed, &v.solution, &phrases);
        let mut phrases_sorted = v.phrases.clone();
        phrases_sorted.sort_by_key(|p| p.to_ascii_lowercase());
        let ok = got.move_score == v.move_score
            && got.power_score == v.power_score
            && got.score == v.score
            && got.error.map(|e| name(&e)) == v.error
            && got.evaluator_error == v.evaluator_error
            && name(&got.end_state) == v.end_state
            && got.commands == v.commands
            && got.locked == v.locked
            && got.phrases == phrases_sorted
            && got.phrase_counts.iter().cloned().collect::<BTreeMap<_, _>>() == v.phrase_counts
            && got.lines_cleared == v.lines_cleared
            && got.line_bonus == v.line_bonus;
        if !ok {
            wrong.push(format!("vector {i} (problem {}, seed {}, {:?}): got {got:?}", v.problem_id, v.seed, v.note));
        }
    }
    assert!(wrong.is_empty(), "{} of 383 vectors differ:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_official_sample_scores_3261() {
    let text = std::fs::read_to_string(data("tests/data/problem6-seed0.txt")).unwrap();
    let v = score(&problem(6), 0, &text, &Phrases::official());
    assert_eq!((v.score, v.locked, v.power_score, v.error), (3261, 148, 0, None));
    assert_eq!(name(&v.end_state), "board_full");
}
