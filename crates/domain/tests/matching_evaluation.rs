//! The matcher on the labelled set, as CI runs it: fails below precision 0.95 or recall
//! 0.80 at the serving threshold, and prints the figures and every error either way.

use marketlens_domain::matching::evaluation::{evaluate_at_serving_threshold, parse};

const PAIRS: &str = include_str!("../../../tests/data/matching/pairs.jsonl");
const MINIMUM_PRECISION: f64 = 0.95;
const MINIMUM_RECALL: f64 = 0.80;

#[test]
fn precision_and_recall_on_the_labelled_set_meet_the_bar() {
    let pairs = parse(PAIRS).expect("the labelled set parses");
    assert!(pairs.len() >= 150, "the labelled set has {} pairs", pairs.len());
    let evaluation = evaluate_at_serving_threshold(&pairs);
    println!("{evaluation}");
    assert!(
        evaluation.precision() >= MINIMUM_PRECISION,
        "precision {:.3} is below {MINIMUM_PRECISION}",
        evaluation.precision()
    );
    assert!(
        evaluation.recall() >= MINIMUM_RECALL,
        "recall {:.3} is below {MINIMUM_RECALL}",
        evaluation.recall()
    );
}
