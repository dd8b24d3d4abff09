//! Games of single cells: a beam over every place each unit can lock, each with its best text.
//!
//! When no unit of a game can turn (each is one cell turning about itself), the best text that
//! takes a unit to a lock is known exactly for every place at once ([`Turnless::walks`]), so a
//! beam can weigh locks and phrases together: the planning beam picks places by the board they
//! leave and the speller then does what it can on the way, where here a unit's children are
//! every place it can lock, times every way its text can end (the phrase the next unit may
//! finish, the phrases used first). A layer holds the games after the same number of units,
//! ranked by their points so far (move score and phrase points); games with the same board, the
//! same state of the phrases' automaton, the same phrases used and the same line bonus ahead
//! are one (the best is kept).
//!
//! ```text
//!   layer k       games after k units, at most `width`
//!     each game   every (lock, end state, phrases first used) of unit k's walks
//!   layer k + 1   the best `width` of those, one per (board, state, phrases used, lines)
//! ```

use std::cmp::Reverse;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{Hash, Hasher};

use tessera_core::runtime::Budget;

use super::unturned::Turnless;
use crate::engine::{Board, Pos, Rules, State};
use crate::problem::Problem;

/// See [`Node::key`].
type Key = (u64, u8, usize, u32);

/// A game in the beam after its last unit.
#[derive(Clone, Debug)]
struct Node {
    state: State,
    /// The board's hash.
    hash: u64,
    /// The automaton's state after the text so far, and the phrases used (a mask as in
    /// [`Turnless::walks`]).
    auto: usize,
    used: u32,
    /// Phrase points so far.
    power: i64,
    /// The game in the layer before, and this unit's text.
    parent: usize,
    text: Vec<u8>,
    /// Whether the game is over: the source is used up or the next unit's spawn is taken.
    over: bool,
}

impl Node {
    fn points(&self) -> i64 {
        self.state.move_score as i64 + self.power
    }

    /// What makes two games the same: their board (hashed), the lines of the last lock, the
    /// automaton's state and the phrases used.
    fn key(&self) -> Key {
        (self.hash, self.state.ls_old, self.auto, self.used)
    }

    /// How the beam ranks games: by points, then by the highest filled row, lower first
    /// (more rows for the next units to spell phrases on the way down).
    fn rank(&self) -> (i64, i64) {
        rank(self.points(), &self.state)
    }
}

/// Whether every unit of the problem is a single cell that [`Turnless`] takes.
pub(crate) fn takes(rules: &Rules) -> bool {
    rules.units.iter().all(|u| Turnless::takes(rules, u))
}

/// The best game of seed `seed` a beam of `width` finds on `threads` threads, with its points
/// (move score and phrase points, as the judge counts them), or `None` when some unit can
/// turn, the board is too big for [`Turnless`], or the time runs out before any game is over
/// (when it runs out later, the best game over by then).
pub(crate) fn play(
    (problem, rules, turnless): (&Problem, &Rules, &Turnless),
    seed: u32,
    (width, threads): (usize, usize),
    budget: &Budget,
) -> Option<(String, i64)> {
    let source = problem.source(seed);
    if source.iter().any(|&u| !Turnless::takes(rules, &rules.units[u])) {
        return None;
    }
    let start = State::new(problem);
    let over = spawn_taken(rules, &start.board, &source, 0);
    let first = Node { state: start, hash: 0, auto: 0, used: 0, power: 0, parent: 0, text: Vec::new(), over };
    // The games of the last layer, and of each layer before it only what spells them.
    let mut layer = vec![first];
    let mut history: Vec<Vec<(usize, Vec<u8>)>> = Vec::new();
    let mut best: Option<(i64, usize, usize)> = None;
    loop {
        for (i, n) in layer.iter().enumerate().filter(|(_, n)| n.over) {
            if best.is_none_or(|b| n.points() > b.0) {
                best = Some((n.points(), history.len(), i));
            }
        }
        let next = next_layer((rules, turnless, &source), &layer, (width, threads), budget);
        history.push(layer.into_iter().map(|n| (n.parent, n.text)).collect());
        // Out of time: the best game over so far (if any) is still a whole game.
        let Some(next) = next.filter(|n| !n.is_empty()) else {
            break;
        };
        layer = next;
    }
    let (points, mut k, mut i) = best?;
    let mut texts = Vec::new();
    while k > 0 {
        let (parent, text) = &history[k][i];
        texts.push(String::from_utf8_lossy(text).into_owned());
        (k, i) = (k - 1, *parent);
    }
    texts.reverse();
    Some((texts.concat(), points))
}

/// The rank of a game of `points` in `state` (see [`Node::rank`]).
fn rank(points: i64, state: &State) -> (i64, i64) {
    (points, state.board.top() as i64)
}

/// The games after the next unit from those of `layer` that are not over, at most `width`,
/// found on `threads` threads (each expands a share of the games; their layers are merged);
/// `None` when the time runs out.
fn next_layer(
    (rules, turnless, source): (&Rules, &Turnless, &[usize]),
    layer: &[Node],
    (width, threads): (usize, usize),
    budget: &Budget,
) -> Option<Vec<Node>> {
    let open: Vec<usize> = (0..layer.len()).filter(|&i| !layer[i].over).collect();
    let threads = threads.clamp(1, open.len().div_ceil(4).max(1));
    // Thread `t` takes every `threads`th game from the `t`th: each gets some of the best.
    let expand = |t: usize| -> Option<Next> {
        let mut budget = budget.worker();
        let mut next = Next { nodes: Vec::new(), seen: HashMap::new(), floor: BinaryHeap::new(), width };
        for &i in open.iter().skip(t).step_by(threads) {
            if budget.expired() {
                return None;
            }
            next.children(rules, turnless, source, (i, &layer[i]));
        }
        Some(next)
    };
    let parts: Vec<Option<Next>> =
        if threads == 1 { vec![expand(0)] } else { tessera_core::runtime::run_each((0..threads).collect(), expand) };
    let mut parts = parts.into_iter().collect::<Option<Vec<Next>>>()?.into_iter();
    let mut merged = parts.next().map_or_else(Vec::new, |n| n.nodes);
    if threads > 1 {
        // The same game from two threads: the better one.
        let mut seen: HashMap<_, usize> = merged.iter().enumerate().map(|(j, n)| (n.key(), j)).collect();
        for node in parts.flat_map(|n| n.nodes) {
            match seen.get(&node.key()) {
                Some(&j) if merged[j].rank() >= node.rank() => {}
                Some(&j) => merged[j] = node,
                None => {
                    seen.insert(node.key(), merged.len());
                    merged.push(node);
                }
            }
        }
    }
    // Best first: the next layer's first parents raise its floor soonest.
    merged.sort_by_key(|n| Reverse(n.rank()));
    merged.truncate(width);
    Some(merged)
}

/// Whether the unit after `locked` units cannot start: the source is used up or its spawn is
/// taken.
fn spawn_taken(rules: &Rules, board: &Board, source: &[usize], locked: usize) -> bool {
    source.get(locked).is_none_or(|&u| !rules.fits(board, &rules.units[u], rules.units[u].spawn))
}

/// A layer being filled.
struct Next {
    nodes: Vec<Node>,
    /// Where each (board's hash, lines of the last lock, automaton state, phrases used) is.
    seen: HashMap<Key, usize>,
    /// The points of the best `width` games let in so far (some may since have been bettered
    /// by a game with the same key): a game scoring no more than the least of them cannot be
    /// among the layer's best.
    floor: BinaryHeap<Reverse<(i64, i64)>>,
    width: usize,
}

impl Next {
    /// Whether a game of rank `rank` may be among the layer's best.
    fn may_enter(&self, rank: (i64, i64)) -> bool {
        self.floor.len() < self.width || self.floor.peek().is_some_and(|f| rank > f.0)
    }

    /// Counts in a game of rank `rank` with a key not seen before.
    fn count_in(&mut self, rank: (i64, i64)) {
        self.floor.push(Reverse(rank));
        if self.floor.len() > self.width {
            self.floor.pop();
        }
    }

    /// Adds the children of `node` (the `i`th of its layer): every place its next unit can
    /// lock, with every way the unit's text can end there.
    fn children(&mut self, rules: &Rules, turnless: &Turnless, source: &[usize], (i, node): (usize, &Node)) {
        let u = source[node.state.locked];
        let Some(walks) = turnless.walks((rules, &node.state.board, &rules.units[u]), node.auto, node.used) else {
            return;
        };
        // The ends come sorted by place: lock once per place.
        let mut locked: Option<(Pos, State, u64)> = None;
        for end in &walks.ends {
            if locked.as_ref().is_none_or(|l| l.0 != end.pos) {
                let mut state = node.state.clone();
                state.lock(rules, u, end.pos);
                let mut h = DefaultHasher::new();
                state.board.hash(&mut h);
                locked = Some((end.pos, state, h.finish()));
            }
            let (_, state, hash) = locked.as_ref().expect("locked above");
            let (used, power) = (node.used | end.first, node.power + end.points);
            let points = state.move_score as i64 + power;
            let key = (*hash, state.ls_old, end.state, used);
            let rank = rank(points, state);
            if self.seen.get(&key).is_some_and(|&j| self.nodes[j].rank() >= rank) || !self.may_enter(rank) {
                continue;
            }
            let child = Node {
                state: state.clone(),
                hash: *hash,
                auto: end.state,
                used,
                power,
                parent: i,
                text: walks.text(end),
                over: spawn_taken(rules, &state.board, source, state.locked),
            };
            match self.seen.get(&key) {
                Some(&j) => self.nodes[j] = child,
                None => {
                    self.count_in(rank);
                    self.seen.insert(key, self.nodes.len());
                    self.nodes.push(child);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::rng::Rng64;

    use super::super::exact::Exact;
    use super::*;
    use crate::judge::score;
    use crate::phrase::Phrases;
    use crate::problem::{Cell, UnitDef};

    /// A small board, its lower rows partly filled (and none full), with `units` single cells.
    fn problem(rng: &mut Rng64, (width, height): (usize, usize), units: usize) -> Problem {
        let filled = (0..width * height)
            .filter(|i| i / width >= height / 2 && i % width != 0 && rng.below(2) == 0)
            .map(|i| Cell::new((i % width) as i32, (i / width) as i32));
        let cell = UnitDef { members: vec![Cell::new(0, 0)], pivot: Cell::new(0, 0) };
        Problem {
            id: 1,
            units: vec![cell],
            width,
            height,
            filled: filled.collect(),
            source_length: units,
            source_seeds: vec![0],
        }
    }

    #[test]
    fn an_unbounded_beam_finds_the_proven_optimum() {
        // With no limit on the width the beam is a search over every game: each unit's walks
        // are exact, and games with the same board, automaton state, phrases used and lines of
        // the last lock have the same future.
        let phrases = Phrases::new(["ei!", "ia! ia!", "yuggoth"].map(String::from)).unwrap();
        let turnless = Turnless::of(&phrases).unwrap();
        let mut rng = Rng64::seed(21);
        let mut cleared = 0;
        for case in 0..12 {
            let size = [(3, 4), (4, 4), (3, 5)][case % 3];
            let p = problem(&mut rng, size, 2 + case % 2);
            let rules = Rules::new(&p).unwrap();
            let proven = Exact::new(&p, &rules, &phrases, 0).expect("a short game").run(&Budget::unlimited());
            assert!(proven.proven, "case {case}");
            // On one thread and on two (each expands some games; their layers are merged).
            for threads in [1, 2] {
                let game = play((&p, &rules, &turnless), 0, (usize::MAX, threads), &Budget::unlimited());
                let (text, points) = game.unwrap();
                let card = score(&p, 0, &text, &phrases);
                assert_eq!(card.error, None, "case {case}: {text:?}");
                assert_eq!(card.score as i64, points, "case {case}: {text:?}");
                assert_eq!(points, proven.points, "case {case}: {text:?} against {:?}", proven.text);
                cleared += card.lines_cleared;
            }
        }
        assert!(cleared > 0, "no case cleared a line");
    }

    #[test]
    fn narrow_beams_give_games_the_judge_scores_as_they_do() {
        let problem = crate::builtin::problem(21).unwrap();
        let rules = Rules::new(&problem).unwrap();
        let phrases = Phrases::official();
        let turnless = Turnless::of(&phrases).unwrap();
        assert!(takes(&rules));
        let mut scores = Vec::new();
        for (width, threads) in [(1, 1), (4, 2), (16, 1), (16, 2)] {
            let game = play((&problem, &rules, &turnless), 0, (width, threads), &Budget::unlimited());
            let (text, points) = game.unwrap();
            let card = score(&problem, 0, &text, &phrases);
            assert_eq!(card.error, None, "width {width}: {text:?}");
            assert_eq!((card.score as i64, card.locked), (points, 20), "width {width}: {text:?}");
            scores.push(points);
        }
        // Wider finds more here (each width's game checked by the judge above).
        assert!(scores[2] > scores[0] && scores[3] > scores[0], "{scores:?}");
        // No time: no game.
        let over = Budget::unlimited().with_time(std::time::Duration::ZERO);
        for threads in [1, 2] {
            assert!(play((&problem, &rules, &turnless), 0, (16, threads), &over).is_none());
        }
    }

    #[test]
    fn units_that_can_turn_are_not_taken() {
        let mut p = crate::builtin::problem(21).unwrap();
        p.units.push(UnitDef { members: vec![Cell::new(0, 0), Cell::new(1, 0)], pivot: Cell::new(0, 0) });
        let rules = Rules::new(&p).unwrap();
        assert!(!takes(&rules));
    }
}
