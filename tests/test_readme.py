"""The README opens with the two commands, and documents every option and environment variable."""

from pathlib import Path

from jupyter_chatdb.config import ChatDB as Settings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_readme_opens_with_demo_and_test():
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in first_block.strip().splitlines()] == ["make demo", "make test"]


def test_every_option_is_documented():
    for option in Settings.class_own_traits(config=True):
        assert f"`{option}`" in README, option


def test_every_environment_variable_is_documented():
    for variable in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL",
        "CHATDB_MODEL",
        "CHATDB_HOME",
        "CHATDB_THREADS",
    ):
        assert f"`{variable}`" in README, variable
