"""The spec's worked example (socialmaze §6, the paper's Figure 47), shared by the tests."""

from engine.social_graph.graph import Edge, people_labels

PEOPLE = people_labels(8)
# In the order the paper lists them.
EDGES = (
    Edge("C", "H", False), Edge("A", "G", True), Edge("H", "E", True), Edge("A", "D", True),
    Edge("A", "F", True), Edge("A", "C", True), Edge("A", "B", True), Edge("E", "G", False),
)
GROUPS = (("A", "B", "C", "D", "F", "G"), ("E", "H"))
OFFICIAL_LINES = "\n".join(
    f"{e.a} and {e.b} have a {'good' if e.good else 'bad'} relationship" for e in EDGES)


def official_record(question: str, answer: str, **extra) -> dict:
    """A record shaped like the authors' released files (relation/data/<level>/*.json)."""
    prompt = (f"There are 8 people in total, labeled from A to H.\n\nSome instructions.\n\n"
              f"{OFFICIAL_LINES}\n\nQuestion: {question}\n\nProvide your answer in the format: "
              f"Final Answer: ...")
    return {"system_prompt": "rules", "user_prompt": prompt, "answer": answer, **extra}
