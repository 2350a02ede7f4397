"""The balance hint for younger players (``kipp play --hints``, B toggles it): the bots' judgement, shown.

While a person places a barrel, :class:`BalanceHint` asks the bots' balance judgement
(:meth:`kipp.players.balance.BalanceJudge.aim`, the ``balance`` aim of
:class:`kipp.players.bots.Bot`) where a careful player would set it: the rolled sailor's
turn is known (red or yellow: that sailor; blue on a round's first turn: blue; wild: the
judge picks the aim and the sailor together, as the ``joint`` bot does). Its margin (how
far the tower would be from tipping either way through the placement and the coming
turn) is the gauge. The rest of the time the gauge shows the static margin of the tower
as it stands (:meth:`~kipp.players.balance.BalanceJudge.standing_margin`), and on a wild
roll after placing, the sailor the ``joint`` bot would turn. Never a referee's verdict.

Each piece of advice is worked out once per game node (the placement, the wild choice,
the tower) and kept, so drawing it costs a frame nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kipp.language import N_, Language
from kipp.players.balance import BalanceJudge
from kipp.rules.actions import WILD, ChooseSailor, PlaceAnywhere
from sim.params import SCREWS, Params
from viewer.words import ENGLISH, the_sailor

GREEN_DEG = 4.0
"""At least this many degrees to spare: the gauge is green."""
AMBER_DEG = 1.5
"""At least this many (and less than :data:`GREEN_DEG`): amber; below: red (a turn's jolt could do it)."""


@dataclass(frozen=True)
class Advice:
    """What the hint says at one game node.

    ``kind``: "place" (a barrel is being placed: ``aim_xy`` and ``size`` set, ``sailor`` the
    one the aim was judged for), "sailor" (a wild roll after placing: ``sailor`` to turn)
    or "tower" (the tower as it stands)."""

    kind: str
    margin_rad: float
    """Placing: the judge's balance margin of the aim through the coming turn; otherwise the
    static margin of the tower as it stands (+inf: nothing to tip)."""
    aim_xy: tuple[float, float] | None = None
    """Deck-frame aim, metres (x toward the bow, y to port)."""
    size: str | None = None
    sailor: str | None = None
    wild: bool = False

    @property
    def margin_deg(self) -> float:
        return math.degrees(self.margin_rad)

    @property
    def level(self) -> str:
        """"good", "close" or "tipping": the gauge's colour."""
        return level_of(self.margin_rad)


def level_of(margin_rad: float) -> str:
    """The gauge's colour for a margin, judged as shown (to a tenth of a degree)."""
    degrees = round(math.degrees(margin_rad), 1) if math.isfinite(margin_rad) else margin_rad
    if degrees >= GREEN_DEG:
        return "good"
    return "close" if degrees >= AMBER_DEG else "tipping"


class BalanceHint:
    """The advice for a game state, from one :class:`BalanceJudge`, cached per game node."""

    def __init__(self, params: Params) -> None:
        self.judge = BalanceJudge(params)
        self._kept: dict[bool, tuple[tuple, Advice]] = {}
        self.computed = 0
        """How many times advice was worked out (not looked up): once per node."""

    def advice(self, state, *, person: bool = True) -> Advice | None:
        """The advice at ``state`` (a :class:`kipp.rules.state.GameState`); None when the game is over.

        ``person``: a person is about to act (place, or pick the wild sailor); otherwise
        (a bot's move, a decision running) only the tower as it stands is judged."""
        if state.is_terminal():
            return None
        key = (len(state.history()), state.tower, state.face)
        kept = self._kept.get(person)
        if kept is not None and kept[0][0] == key[0] and kept[0][1] is key[1] and kept[0][2] == key[2]:
            return kept[1]
        advice = self._work_out(state, person)
        self._kept[person] = (key, advice)
        self.computed += 1
        return advice

    def _work_out(self, state, person: bool) -> Advice:
        tower = state.tower
        fraction = state.config.fraction
        legal = [] if state.is_chance_node() or not person else state.legal_actions()
        first = legal[0] if legal else None
        if isinstance(first, PlaceAnywhere) and state.face is not None:
            wild = state.face == WILD
            sailors = list(SCREWS) if wild else [state.face]
            x, y, sailor, margin = self.judge.aim(tower, first.size, sailors, fraction)
            return Advice("place", margin, (x, y), first.size, sailor, wild)
        if isinstance(first, ChooseSailor):
            sailor = self.judge.best_sailor(tower, SCREWS, fraction)
            return Advice("sailor", self.judge.standing_margin(tower), sailor=sailor, wild=True)
        return Advice("tower", self.judge.standing_margin(tower))


_THEN_TURN = {"red": N_("set it on the purple mark, then turn red"),
              "yellow": N_("set it on the purple mark, then turn yellow"),
              "blue": N_("set it on the purple mark, then turn blue")}
"""The gauge's advice on a wild roll: where to set the barrel and which sailor to turn after."""


def gauge_text(advice: Advice, language: Language = ENGLISH) -> tuple[str, str | None]:
    """(headline, detail) of the gauge: how much tilt is to spare, and what the hint suggests, in ``language``."""
    _ = language.gettext
    if advice.kind == "place":
        if math.isinf(advice.margin_rad):
            return _("Balance: the first barrel is in the middle"), None
        head = (_("Balance: {degrees}\u00b0 to spare").format(degrees=language.decimal(advice.margin_deg, 1))
                if advice.margin_rad >= 0 else _("Balance: it tips!"))
        if advice.wild and advice.sailor in _THEN_TURN:
            return head, _(_THEN_TURN[advice.sailor])
        return head, _("set it on the purple mark")
    if math.isinf(advice.margin_rad):
        head = _("Tower: nothing to tip yet")
    elif advice.margin_rad >= 0:
        head = _("Tower: {degrees}\u00b0 from tipping").format(degrees=language.decimal(advice.margin_deg, 1))
    else:
        head = _("Tower: tipping!")
    if advice.kind == "sailor":
        return head, _("hint: turn {sailor}").format(sailor=the_sailor(advice.sailor, language))
    return head, None
