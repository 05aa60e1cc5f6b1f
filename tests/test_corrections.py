"""A correction said right after a question asks that question again, as corrected; said alone, it is
noted (real DuckDB, scripted model, memory off)."""

from jupyter_chatdb import ChatDB

from .conftest import native


def test_a_correction_after_a_question_asks_it_again_as_corrected(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push(native("SELECT sum(units) AS units FROM sales"))
    assert chatdb.ask("How many units were sold?", use_memory=False).answer == "units: 36"
    scripted.push(native("SELECT sum(units) AS units FROM sales WHERE region = 'North'"))
    reply = chatdb.ask("Actually, only the North region.", use_memory=False)
    assert reply.request == "How many units were sold? Actually, only the North region."
    assert reply.answer == "units: 17" and reply.route == "read"
    assert "How many units were sold? Actually, only the North region." in scripted.calls[-1].messages[-1]["content"]
    scripted.push(native("SELECT sum(units) AS units FROM sales WHERE region = 'South'"))
    reply = chatdb.ask("No, the South region.", use_memory=False)  # corrects the question as corrected
    assert reply.request == "How many units were sold? Actually, only the North region. No, the South region."
    assert reply.answer == "units: 16"
    chatdb.close()


def test_a_correction_with_no_question_before_it_is_noted(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    reply = chatdb.ask("Actually, a big sale is one above 10 units.", use_memory=False)
    assert reply.route == "chat" and reply.answer.startswith("Noted") and not scripted.calls
    chatdb.close()
