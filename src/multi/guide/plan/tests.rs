//! The plan's tests: hand-made goal areas and random levels.

use super::*;
use crate::level::parse_xsb;
use crate::multi::testing::DEAD_END;

fn boards(text: &[u8]) -> Vec<Board> {
    let levels = parse_xsb(text, 1 << 20).unwrap();
    levels.iter().map(|l| Board::new(l).unwrap()).collect()
}

/// Every goal once in the phases, every parking time once (on a goal
/// only before that goal's phase), ending after it starts, times of one
/// square apart; no phase empty.
fn assert_well_formed(board: &Board, plan: &Plan) {
    assert!(plan.phases.iter().all(|p| !p.is_empty()));
    let parked = |k: usize, c: Cell| {
        plan.parking
            .iter()
            .any(|p| p.cell == c && usize::from(p.from) == k)
    };
    let mut goals: Vec<Cell> = Vec::new();
    for (k, phase) in plan.phases.iter().enumerate() {
        goals.extend(phase.iter().filter(|&&c| !parked(k, c)));
    }
    goals.sort_unstable();
    assert_eq!(goals, board.goals);
    let targets: usize = plan.phases.iter().map(Vec::len).sum();
    assert_eq!(targets, board.goals.len() + plan.parking.len());
    for (i, p) in plan.parking.iter().enumerate() {
        if board.is_goal[p.cell] {
            let goal = plan.phases.iter().rposition(|ph| ph.contains(&p.cell));
            assert!(
                goal.is_some_and(|g| usize::from(p.until) <= g),
                "parked on a goal too late"
            );
        }
        assert!(plan.phases[usize::from(p.from)].contains(&p.cell));
        assert!(p.from < p.until && usize::from(p.until) < plan.phases.len());
        for q in &plan.parking[..i] {
            let apart = q.until <= p.from || p.until <= q.from;
            assert!(q.cell != p.cell || apart, "one square, two boxes at once");
        }
    }
}

#[test]
fn a_dead_end_of_goals_fills_from_the_back() {
    let level = parse_xsb(DEAD_END.as_bytes(), 1 << 20).unwrap().remove(0);
    let b = Board::new(&level).unwrap();
    let at = |c| b.compact(level.grid.cell(1, c));
    let plan = backward_plan(&b).expect("a plan");
    assert_well_formed(&b, &plan);
    assert!(plan.parking.is_empty());
    assert_eq!(plan.phases, vec![vec![at(1)], vec![at(2)], vec![at(3)]]);
}

/// Goal areas whose boxes must wait outside while others go in first
/// (Boxxle I 81, Sokoban Perfect 33): the plan parks a box.
#[test]
fn a_box_that_must_wait_is_parked() {
    for b in &boards(include_bytes!("../../../../tests/data/plan/parking.xsb")) {
        let plan = backward_plan(b).expect("a plan");
        assert_well_formed(b, &plan);
        assert!(!plan.parking.is_empty());
    }
}

/// Boxxle I 48: the last box left is a parked one, on the start square
/// it was parked on; it leaves from there (with a parking square beside
/// a corridor, where a box cannot stop, passed over for the one before).
#[test]
fn the_last_parked_box_may_leave_from_its_own_start_square() {
    let text = include_bytes!("../../../../tests/data/plan/last-parked.xsb");
    let level = parse_xsb(text, 1 << 20).unwrap().remove(0);
    let b = Board::new(&level).unwrap();
    let at = |r, c| b.compact(level.grid.cell(r, c));
    let plan = backward_plan(&b).expect("a plan");
    assert_well_formed(&b, &plan);
    let parked: Vec<Cell> = plan.parking.iter().map(|p| p.cell).collect();
    assert_eq!(parked, vec![at(6, 12), at(5, 11)]);
    let planner = Planner::new(&b);
    assert!(planner.no_waiting(at(5, 12)), "out of a corridor, no turn");
    assert!(!planner.no_waiting(at(5, 11)));
}

/// Sasquatch I 36, YASS's plan: boxes wait on goals emptied before
/// (read backwards), their own boxes coming home after they leave.
#[test]
fn a_box_may_wait_on_a_goal_whose_own_box_comes_later() {
    let text = include_bytes!("../../../../tests/data/plan/parked-on-goals.xsb");
    let b = &boards(text)[0];
    let plan = backward_plan(b).expect("a plan");
    assert_well_formed(b, &plan);
    assert_eq!((plan.phases.len(), plan.parking.len()), (23, 14));
    assert!(plan.parking.iter().any(|p| b.is_goal[p.cell]));
}

#[test]
fn only_a_goal_area_is_planned() {
    assert!(!worth_planning(&boards(DEAD_END.as_bytes())[0]));
    for b in &boards(include_bytes!("../../../../tests/data/plan/parking.xsb")) {
        assert!(worth_planning(b));
    }
}

/// A wide open level with a goal block: the work stops at the budget,
/// here while the tables the search starts from are built.
#[test]
fn a_large_level_keeps_to_the_budget() {
    let mut rows = vec!["#".repeat(122)];
    for r in 0..120 {
        let mut row = vec![' '; 120];
        if (50..53).contains(&r) {
            row[50..54].fill('.');
            row[10 + r..10 + r + 4].fill('$');
        }
        if r == 119 {
            row[0] = '@';
        }
        rows.push(format!("#{}#", row.into_iter().collect::<String>()));
    }
    rows.push("#".repeat(122));
    let b = &boards(rows.join("\n").as_bytes())[0];
    assert!(worth_planning(b));
    let planner = Planner::new(b);
    // Spent while the tables are built, by at most a flood or two more.
    assert!(planner.work >= MAX_WORK, "{}", planner.work);
    assert!(planner.work <= MAX_WORK + 2 * b.len(), "{}", planner.work);
    // The search then gives up with no plan (the caller falls back on the peel).
    assert!(backward_plan(b).is_none());
}

#[test]
fn plans_of_random_levels_are_well_formed() {
    let mut rng = crate::rng::Rng::new(0x9_1A4);
    let mut planned = 0;
    for case in 0..3000 {
        let Some(b) = crate::multi::testing::random_level(&mut rng, case) else {
            continue;
        };
        if b.goals.len() != b.start_boxes.len() {
            continue;
        }
        if let Some(plan) = backward_plan(&b) {
            assert_well_formed(&b, &plan);
            planned += 1;
        }
    }
    assert!(planned > 20, "only {planned} random levels planned");
}
