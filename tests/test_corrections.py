"""A correction said right after a question asks that question again, as corrected; said alone, it is
noted (real DuckDB, scripted model, memory off)."""

from jupyter_chatdb import ChatDB

from .conftest import native


def test_a_correction_after_a_question_asks_it_again_as_corrected(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push(native("SELECT sum(units) AS units FROM sales"))
    assert chatdb.ask("How many units were sold?", use_memory=False).answer == "units: 36"
    scripted.push({"message": "correction"}, native("SELECT sum(units) AS units FROM sales WHERE region = 'North'"))
    reply = chatdb.ask("Actually, only the North region.", use_memory=False)
    assert reply.request == "How many units were sold? Actually, only the North region."
    assert reply.answer == "units: 17" and reply.route == "read"
    assert "How many units were sold? Actually, only the North region." in scripted.calls[-1].messages[-1]["content"]
    scripted.push({"message": "correction"}, native("SELECT sum(units) AS units FROM sales WHERE region = 'South'"))
    reply = chatdb.ask("No, the South region.", use_memory=False)  # corrects the question as corrected
    assert reply.request == "How many units were sold? Actually, only the North region. No, the South region."
    assert reply.answer == "units: 16"
    chatdb.close()


def test_a_correction_with_no_question_before_it_is_noted(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push({"message": "note"})  # it asks for no data
    reply = chatdb.ask("Actually, a big sale is one above 10 units.", use_memory=False)
    assert reply.route == "chat" and reply.answer.startswith("Noted") and len(scripted.calls) == 1
    assert scripted.calls[0].json_schema["properties"]["message"]["enum"] == ["note", "request"]
    chatdb.close()


def test_a_correction_the_model_reads_as_a_new_question_is_asked_as_it_is(scripted, sales):
    """The words only suggest a correction: the routing call decides."""
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push(native("SELECT sum(units) AS units FROM sales"))
    chatdb.ask("How many units were sold?", use_memory=False)
    not_a_correction, routed = {"message": "new request"}, {"route": "read"}
    scripted.push(not_a_correction, routed, native("SELECT count(*) AS n FROM sales WHERE region = 'North'"))
    reply = chatdb.ask("Actually, list how many sales the North region had.", use_memory=False)
    assert reply.request == "Actually, list how many sales the North region had." and reply.answer == "n: 2"
    assert "Question before: How many units were sold? Message: Actually" in scripted.calls[1].messages[-1]["content"]
    chatdb.close()


def test_a_statement_that_also_asks_for_data_is_answered(scripted, sales):
    """ "X counts as Y, list them": the words say a definition, the model reads a question too."""
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push({"message": "request"}, native("SELECT DISTINCT region FROM sales WHERE units > 8 ORDER BY region"))
    reply = chatdb.ask("Sales above 8 units count as big, list their regions", use_memory=False)
    assert reply.route == "read" and reply.result["region"].tolist() == ["North", "South"]
    chatdb.close()
