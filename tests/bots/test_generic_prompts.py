"""The generic prompt builder describes any action space, including options with arguments."""

from bots.prompts.base import PromptBuilder
from engine.core import ActionSpace, Field, Option
from engine.registry import get


def test_the_generic_instruction_says_what_an_option_argument_takes():
    space = ActionSpace("choice", "Act.", options=(
        Option("speak", "Say something", arg=Field("text", "Message", "text", max_chars=200)),
        Option("camera", "Watch a room", arg=Field("room", "Room", "choice", options=(
            Option("cafeteria", "Cafeteria"), Option("admin", "Admin")))),
        Option("noop", "Wait")))
    text = PromptBuilder(get("colonel-blotto")).instruction({"seat": 0}, space.to_json())
    assert "speak: <Message> = Say something" in text
    assert "camera: <one of cafeteria, admin> = Watch a room" in text and "noop = Wait" in text
