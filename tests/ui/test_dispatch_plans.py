"""A message reaches the same handlers, in the same order, as Textual's own walk would
find, and the walk is made once per kind of widget and message."""

from __future__ import annotations

from textual import events, on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Button

from diamant_tui.ui import dispatch_plans
from diamant_tui.ui.dispatch_plans import _TEXTUAL_GET_DISPATCH_METHODS, plan_dispatches
from diamant_tui.ui.screens.table import TableScreen
from diamant_tui.ui.messages import TableUpdated


class Base(Widget):
    """Handlers by name and by decorator, some with selectors."""

    def __init__(self, log: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.said = log

    def on_button_pressed(self, message: Button.Pressed) -> None:
        self.said.append("base by name")

    @on(Button.Pressed, "#yes")
    def base_yes(self, message: Button.Pressed) -> None:
        self.said.append("base #yes")

    @on(Message)
    def base_any(self, message: Message) -> None:
        if isinstance(message, Button.Pressed):
            self.said.append("base any")


class Middle(Base):
    """Stops the classes after it from handling a press on #stop."""

    @on(Button.Pressed)
    def middle_pressed(self, message: Button.Pressed) -> None:
        self.said.append("middle")
        if message.button.id == "stop":
            message.prevent_default()


class Top(Middle):
    def on_button_pressed(self, message: Button.Pressed) -> None:
        self.said.append("top by name")

    @on(Button.Pressed, "#no")
    def top_no(self, message: Button.Pressed) -> None:
        self.said.append("top #no")


class Panel(App):
    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log_ = log

    def compose(self) -> ComposeResult:
        with Top(self.log_, id="top"):
            yield Button("yes", id="yes")
            yield Button("no", id="no")
            yield Button("stop", id="stop")


def walk(getter, pump: MessagePump, message: Message) -> list[tuple[type, object]]:
    return [(cls, method.__func__) for cls, method in
            getter(pump, message.handler_name, message)]


async def test_the_handlers_found_are_textuals_own_in_its_order():
    plan_dispatches()
    log: list[str] = []
    app = Panel(log)
    async with app.run_test() as pilot:
        top = app.query_one(Top)
        for button_id in ("yes", "no", "stop"):
            button = app.query_one(f"#{button_id}", Button)
            for message in (Button.Pressed(button), events.Focus(), events.Resize(
                    top.size, top.size, top.size)):
                planned = walk(MessagePump._get_dispatch_methods, top, message)
                textual = walk(_TEXTUAL_GET_DISPATCH_METHODS, top, message)
                assert planned == textual, (button_id, type(message).__name__)
        # A table screen's update and a key reach the same handlers either way.
        for message in (TableUpdated(None), events.Key("c", "c")):
            assert (walk(MessagePump._get_dispatch_methods, TableScreen, message)
                    == walk(_TEXTUAL_GET_DISPATCH_METHODS, TableScreen, message))

        # Pressed for real: each class's decorated handlers, then its handler by name, from
        # the widget's class down; one that prevents the default stops the classes after it.
        log.clear()
        await pilot.click("#stop")
        await pilot.pause()
        assert log == ["top by name", "middle"]
        log.clear()
        await pilot.click("#yes")
        await pilot.pause()
        assert log == ["top by name", "middle", "base #yes", "base any", "base by name"]


async def test_the_handlers_of_a_kind_of_message_are_looked_up_once(monkeypatch):
    plan_dispatches()
    looked_up: list[tuple[type, type, str]] = []
    plan = dispatch_plans._plan

    def counted(pump_class, message_class, method_name):
        looked_up.append((pump_class, message_class, method_name))
        return plan(pump_class, message_class, method_name)

    monkeypatch.setattr(dispatch_plans, "_plan", counted)
    monkeypatch.setattr(dispatch_plans, "_PLANS", {})
    log: list[str] = []
    app = Panel(log)
    async with app.run_test() as pilot:
        for _ in range(3):
            await pilot.click("#no")
            await pilot.pause(0.3)  # after the button's active look
    assert log.count("top #no") == 3
    presses = [key for key in looked_up if key[:2] == (Top, Button.Pressed)]
    assert presses == [(Top, Button.Pressed, "on_button_pressed")]
