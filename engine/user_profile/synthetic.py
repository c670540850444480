"""A SYNTHETIC sample for SocialMaze's User Profile Inference task (spec §8; paper Appendix H),
written by our own template generator: no LLM, no public dataset. In the paper the comments are
LLM-written in a persona's voice; here they are assembled from the banks below (items, opinion
sentences, and style banks with age and gender cues), all written for this project.

One instance (format "parlor.user-profile/1") is one query:

- "user": 8-12 comments by ONE user, each about a different item of the pool; the answer is that
  user's profile, and notes.profiles repeats it once per comment.
- "item": 8-12 comments by MANY users about ONE item; the answer is the dominant audience, the
  (age, gender) combination held by strictly more commenters than any other. notes.profiles is
  each comment's author, in comment order.

Profile draws. Age and gender are drawn independently, age by AGE_WEIGHTS (18-34 .42, 35-54 .34,
55+ .24) and gender by GENDER_WEIGHTS (Female .46, Male .42, Non-binary .12), so the most common
combination, MAJORITY = ("18-34", "Female"), has probability .42 x .46 ~ .19 (the always-MAJORITY
baseline). A "user" answer is one such draw. An "item" answer (the dominant combination) is one
such draw too; it is then held by k commenters, k = round(share x n) for a share uniform in
[.40, .70], kept within [ceil(.4 n), floor(.7 n)]; the other n - k commenters are drawn from the
same distribution with the dominant combination left out, redrawn until no other combination
reaches k. (The paper tunes its pool "to often establish" a dominant combination; we always do.)
The item is drawn uniformly, independently of its audience, so the item gives nothing away.

Comments. Each comment is 2-4 sentences: one opinion about the item (a general template filled
with the item's name, kind, description and an aspect), then, independently,
- an age cue sentence with probability P_AGE_CUE (slang and student life for 18-34; children,
  commute and office for 35-54; retirement, grandchildren and health for 55+),
- a gender cue sentence with probability P_GENDER_CUE ("my wife", "as a dad" for Male; "my
  husband", "as a mom" for Female; pronouns, they/them, queer community for Non-binary),
- a second item sentence (specific to the item's type) or a neutral filler (some fillers say
  "my partner" whatever the author's gender),
and the sentences are shuffled (the opinion stays first more often than not). A cue is
misleading with probability P_MISLEAD: it comes from a uniformly chosen other age group or
gender (a woman may say "my wife", a 40-year-old may mention grandchildren). Two style habits
follow the author's true age: some 18-34 comments are all lower case (P_LOWERCASE), some 55+
comments put two spaces after every full stop (P_DOUBLE_SPACE). So most comments carry one cue
or none, a few carry a wrong one, and a reader must add evidence up over the comments.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

FORMAT = "parlor.user-profile/1"
SOURCE = "synthetic (parlor generator)"
GENERATOR_VERSION = 1  # bump on any change that alters what a seed produces
QUERIES = ("user", "item")

AGE_GROUPS = ("18-34", "35-54", "55+")
GENDERS = ("Male", "Female", "Non-binary")
AGE_WEIGHTS = {"18-34": 0.42, "35-54": 0.34, "55+": 0.24}
GENDER_WEIGHTS = {"Male": 0.42, "Female": 0.46, "Non-binary": 0.12}
MAJORITY = ("18-34", "Female")  # the most likely combination (and answer) for both queries

COMMENTS = (8, 12)
DOMINANT_SHARE = (0.40, 0.70)
P_AGE_CUE = 0.35
P_GENDER_CUE = 0.25
P_MISLEAD = 0.18
P_SECOND_ITEM_SENTENCE = 0.45
P_FILLER = 0.25
P_OPINION_FIRST = 0.65
P_LOWERCASE = 0.15
P_DOUBLE_SPACE = 0.20


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    type: str  # product, show, game, app, service, book
    kind: str  # what it is, in a few words ("rice cooker", "crime series")
    description: str
    aspects: tuple[str, str]

    @property
    def ref(self) -> str:
        """How a sentence names it: products take "the"."""
        return f"the {self.name}" if self.type == "product" else self.name


ITEMS: tuple[Item, ...] = (
    # products
    Item("Nimbus Rice Cooker", "product", "rice cooker",
         "a compact rice cooker with a keep-warm mode", ("the keep-warm mode", "the inner pot")),
    Item("Lumen Arc Desk Lamp", "product", "desk lamp",
         "a dimmable LED lamp with a warm light setting", ("the dimmer", "the light colour")),
    Item("Driftwood Wireless Earbuds", "product", "pair of earbuds",
         "wireless earbuds with a pocket charging case", ("the battery life", "the fit")),
    Item("Wren Folding Bike", "product", "folding bike",
         "a light bike that folds down for trains and buses",
         ("the folding hinge", "the gears")),
    Item("Cobalt Air Fryer", "product", "air fryer",
         "a countertop air fryer with a window in the drawer",
         ("the cooking presets", "the drawer")),
    Item("Cloudnest Weighted Blanket", "product", "weighted blanket",
         "a heavy blanket meant to help with sleep", ("the weight", "the cover fabric")),
    Item("Trillo Smart Scale", "product", "bathroom scale",
         "a scale that sends your readings to your phone", ("the phone sync", "the accuracy")),
    Item("Ridgeline Daypack", "product", "backpack",
         "a thirty-litre pack with a rain cover", ("the hip belt", "the side pockets")),
    Item("Kettlebrook Electric Kettle", "product", "kettle",
         "a variable-temperature kettle for tea and coffee",
         ("the temperature dial", "the spout")),
    Item("Sparrow Robot Vacuum", "product", "robot vacuum",
         "a small robot vacuum that maps the room", ("the room mapping", "the suction")),
    Item("Orchard Stand Mixer", "product", "stand mixer",
         "a tilt-head mixer with three attachments", ("the dough hook", "the motor")),
    # shows
    Item("Harbor Lights", "show", "drama series",
         "a slow-burn drama about a family running a seaside hotel",
         ("the acting", "the pacing")),
    Item("The Quiet Ledger", "show", "crime series",
         "a detective show about a forensic accountant",
         ("the central mystery", "the lead performance")),
    Item("Ten Tiny Kitchens", "show", "cooking competition",
         "a cooking contest filmed in very small kitchens", ("the judging", "the challenges")),
    Item("Orbit Street", "show", "sitcom",
         "a sitcom set in an apartment block on a space station",
         ("the jokes", "the side characters")),
    Item("Wild Margins", "show", "nature documentary",
         "a documentary series about animals living at the edges of cities",
         ("the camera work", "the narration")),
    Item("Second Draft", "show", "comedy series",
         "a comedy about two rival speechwriters", ("the chemistry", "the dialogue")),
    # games
    Item("Ember Keep", "game", "strategy game",
         "a castle-building strategy game that runs through the seasons",
         ("the campaign", "the tutorial")),
    Item("Tidepool Tactics", "game", "puzzle game",
         "a turn-based puzzle game about redirecting water",
         ("the later puzzles", "the hint system")),
    Item("Skyline Rally", "game", "racing game",
         "an arcade racer on rooftop tracks", ("the handling", "the soundtrack")),
    Item("Lantern Hollow", "game", "adventure game",
         "a gentle exploration game set in a lantern-lit village", ("the story", "the map")),
    Item("Pocket Garden", "game", "mobile game",
         "a relaxing game about growing a balcony garden",
         ("the in-game shop", "the art style")),
    Item("Fortress of Cards", "game", "deck-building game",
         "a card game where you build a deck to defend a fort",
         ("the card balance", "the replay value")),
    # apps
    Item("Penny Ledger", "app", "budgeting app",
         "an app that sorts your spending into categories", ("the bank syncing", "the charts")),
    Item("Stride Count", "app", "fitness app",
         "a step-tracking app with weekly walking goals",
         ("the reminders", "the step counting")),
    Item("Murmur", "app", "meditation app",
         "an app with short guided breathing sessions",
         ("the voice guides", "the session length")),
    Item("Wordsmith Daily", "app", "word puzzle app",
         "a daily crossword and anagram app", ("the daily puzzle", "the difficulty")),
    Item("Aisle Runner", "app", "shopping list app",
         "a shared shopping list that sorts items by aisle",
         ("the sharing feature", "the aisle sorting")),
    Item("Lingo Lane", "app", "language app",
         "a language-learning app with short daily lessons",
         ("the speaking exercises", "the streak counter")),
    # services
    Item("Sunday Crate", "service", "meal-kit service",
         "a weekly box of recipes with pre-portioned ingredients",
         ("the recipes", "the packaging")),
    Item("Parcelwise", "service", "delivery service",
         "a same-day parcel delivery service", ("the tracking", "the delivery windows")),
    Item("Fixit Home", "service", "home repair service",
         "a booking service for local repair people", ("the booking process", "the pricing")),
    Item("Marquee Plus", "service", "streaming service",
         "a streaming platform for films and series", ("the catalogue", "the interface")),
    Item("Photo Attic", "service", "photo storage service",
         "an online backup service for photos", ("the upload speed", "the storage plans")),
    # books
    Item("The Salt Orchard", "book", "novel",
         "a family saga set on a coastal farm", ("the characters", "the ending")),
    Item("Small Habits, Big Days", "book", "self-help book",
         "a short book on building daily routines", ("the advice", "the examples")),
    Item("Northern Table", "book", "cookbook",
         "a cookbook of simple winter recipes", ("the recipes", "the photos")),
    Item("A Map of Clocks", "book", "mystery novel",
         "a puzzle-box mystery set in a watchmaker's shop", ("the twists", "the clues")),
)

# Opinion templates for any item: {ref}/{Ref} its name, {kind}, {desc}, {aspect}.
OPINIONS = (
    "{Ref} is {desc}, and it does that job well.",
    "I expected more from {ref}, mostly because {aspect} let me down.",
    "The best part of {ref} is easily {aspect}.",
    "Solid {kind} overall, though {aspect} could use some work.",
    "I keep coming back to {ref} because of {aspect}.",
    "Not sure {ref} lives up to the hype, but I liked {aspect}.",
    "Five stars from me for {aspect} alone.",
    "{Ref} was fine at first, then {aspect} started to bug me.",
    "If you want {desc}, {ref} is a reasonable pick.",
    "I would recommend {ref} to most people, mainly for {aspect}.",
    "Gave {ref} a fair try and {aspect} just did not click for me.",
    "For the price, {ref} is hard to argue with.",
    "Three stars: I liked {aspect}, and everything else is average.",
    "{Ref} surprised me, especially {aspect}.",
    "Compared with the alternatives, {ref} holds up well.",
)

# Second sentences about the item, by type (no cues).
TYPE_SENTENCES: dict[str, tuple[str, ...]] = {
    "product": (
        "Setup took about five minutes out of the box.",
        "It feels sturdier than the photos suggest.",
        "Mine started acting up after a few weeks, which was annoying.",
        "The manual was useless, but it is simple enough to figure out.",
        "It is a bit bulky, so plan where it will live.",
        "Easy to clean, which matters more than I thought.",
    ),
    "show": (
        "The first episode is slow, but it picks up.",
        "The season finale left me shouting at the screen.",
        "The writing is sharp and the cast clearly get along.",
        "A couple of the middle episodes felt like filler.",
        "I watched the whole season in two evenings.",
        "The theme tune is stuck in my head.",
    ),
    "game": (
        "The controls take some getting used to.",
        "I lost a whole weekend to it.",
        "The difficulty spikes near the end are rough.",
        "It runs smoothly even on older hardware.",
        "There is more depth here than the screenshots suggest.",
        "The first hour is a bit of a slog.",
    ),
    "app": (
        "The latest update moved every button around.",
        "It crashes now and then but mostly works.",
        "The notifications are far too pushy.",
        "Syncing between my phone and tablet just works.",
        "The free version is pretty limited.",
        "Signing up took less than a minute.",
    ),
    "service": (
        "Customer support answered within a day.",
        "It was late twice in the first month.",
        "Cancelling turned out to be easier than I feared.",
        "The pricing page is confusing.",
        "Everything arrived in good shape.",
        "It has been reliable for months now.",
    ),
    "book": (
        "The middle chapters drag a little.",
        "I finished it in two sittings.",
        "The last chapter made the whole thing worth it.",
        "The writing is plain but it works.",
        "I underlined half of it.",
        "I lent my copy to a friend and never got it back.",
    ),
}

# Neutral fillers: no age or gender cue ("my partner" is said by every gender here).
FILLERS = (
    "No regrets so far.",
    "Can't complain much.",
    "Mixed feelings overall.",
    "Worth a look if you're on the fence.",
    "My partner thinks it is fine, for what it's worth.",
    "A friend talked me into it.",
    "Just my two cents.",
    "Happy enough with it.",
    "My partner and I are split on this one.",
    "Would recommend with a few reservations.",
)

AGE_CUES: dict[str, tuple[str, ...]] = {
    "18-34": (
        "Ngl it lowkey slaps.",
        "Saw it all over my feed and caved.",
        "My roommate keeps borrowing it lol.",
        "Fits my tiny studio apartment just fine.",
        "On a grad school budget this was a splurge, but worth it.",
        "The group chat has been obsessed with it all month.",
        "It got me through finals week.",
        "The vibes are honestly immaculate.",
        "I'm still paying off student loans, so the price really matters to me.",
        "Ten out of ten, no notes fr.",
        "Everyone at my first real job has one now because of me.",
        "Bought it with my first paycheck from the internship.",
        "My situationship recommended it, the one good thing to come out of that.",
        "It's giving main character energy.",
        "Went viral on TikTok for a reason tbh.",
    ),
    "35-54": (
        "Between school runs and work, I need things that just work.",
        "I get to it once the kids are finally in bed.",
        "My teenager rolled their eyes at it and then used it more than I do.",
        "It makes the morning commute a lot more bearable.",
        "I squeezed it in on my lunch break between meetings.",
        "With a mortgage and two kids I don't buy things on a whim, and this earned its place.",
        "Carpool duty is a little less painful now.",
        "Juggling work deadlines and soccer practice, anything that saves time is a win.",
        "It is now a regular on our family movie night.",
        "Fifteen years at the same company and this still taught me something.",
        "Half the parents at the school gate swear by it.",
        "Once the lunchboxes are packed and the dishwasher is running, this is my me-time.",
        "My eldest is off to college next year, so I'm finally buying things for myself.",
        "It reminds me how much has changed since I was in college twenty years ago.",
        "Worth it after a long day at the office.",
    ),
    "55+": (
        "My grandchildren had to show me how it works, but I manage fine now.",
        "Since I retired I finally have time for things like this.",
        "Some of the text is a bit small for my old eyes.",
        "My arthritis makes fiddly things hard, and this was manageable.",
        "We had nothing like it back in the seventies.",
        "My doctor says to keep my mind busy, and this helps.",
        "I have recommended it to everyone at my bridge club.",
        "On a fixed pension I have to be careful, so I waited for a sale.",
        "The grandkids loved it when they visited at Easter.",
        "After forty years of working I appreciate something simple.",
        "I needed my reading glasses for the small print.",
        "I'm not very good with these gadgets, but I got there in the end.",
        "When I was young we made do without such things.",
        "It's lovely to have something new to enjoy in retirement.",
        "My knees aren't what they used to be, so I appreciate the comfort.",
    ),
}

GENDER_CUES: dict[str, tuple[str, ...]] = {
    "Male": (
        "My wife says I've become obsessed with it.",
        "As a dad I'm picky about this kind of thing.",
        "The guys at work keep asking me about it.",
        "My girlfriend got it for me and I was skeptical.",
        "My buddies and I tried it over the weekend.",
        "As a guy who rarely leaves reviews, that says something.",
        "Speaking as a husband, it has been a hit in our house.",
        "My wife and I both use it now.",
    ),
    "Female": (
        "My husband was skeptical until he tried it.",
        "As a mom I'm picky about this kind of thing.",
        "My girlfriends and I talked about it over brunch.",
        "My boyfriend keeps stealing it.",
        "As a woman, I liked that it didn't talk down to me.",
        "The other moms I know were asking about it.",
        "Finally something that isn't just painted pink and marketed at us women.",
        "My husband and I both use it now.",
    ),
    "Non-binary": (
        "As a non-binary person I loved that it didn't assume anything about me.",
        "Nice that the sign-up form has more than two gender options.",
        "Bonus points for letting me set my pronouns in the profile.",
        "I brought it up at my queer book club and everyone liked it.",
        "My they/them friends would love this one.",
        "As an enby who hates gendered marketing, this was refreshing.",
        "Good to see a company that gets that not everyone is a he or a she.",
        "Being non-binary, I notice when things are made for everyone, and this is.",
    ),
}


def _draw(rng: random.Random, weights: dict[str, float]) -> str:
    values = list(weights)
    return rng.choices(values, weights=[weights[v] for v in values])[0]


def draw_profile(rng: random.Random) -> tuple[str, str]:
    """One (age group, gender), drawn independently by AGE_WEIGHTS and GENDER_WEIGHTS."""
    return _draw(rng, AGE_WEIGHTS), _draw(rng, GENDER_WEIGHTS)


def _cue_value(rng: random.Random, true: str, values: Sequence[str]) -> str:
    """The value a cue speaks for: the true one, or (P_MISLEAD) a uniformly chosen other."""
    if rng.random() < P_MISLEAD:
        return rng.choice([v for v in values if v != true])
    return true


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _opinion(rng: random.Random, item: Item) -> str:
    return rng.choice(OPINIONS).format(ref=item.ref, Ref=_cap(item.ref), kind=item.kind,
                                       desc=item.description, aspect=rng.choice(item.aspects))


def comment(rng: random.Random, item: Item, profile: tuple[str, str]) -> str:
    """A 2-4 sentence comment about `item` by an author with `profile` (see the module doc)."""
    age, gender = profile
    extras: list[str] = []
    if rng.random() < P_AGE_CUE:
        extras.append(rng.choice(AGE_CUES[_cue_value(rng, age, AGE_GROUPS)]))
    if rng.random() < P_GENDER_CUE:
        extras.append(rng.choice(GENDER_CUES[_cue_value(rng, gender, GENDERS)]))
    if rng.random() < P_SECOND_ITEM_SENTENCE:
        extras.append(rng.choice(TYPE_SENTENCES[item.type]))
    if rng.random() < P_FILLER:
        extras.append(rng.choice(FILLERS))
    if not extras:  # at least two sentences
        extras.append(rng.choice(TYPE_SENTENCES[item.type] + FILLERS))
    extras = extras[:3]  # at most four sentences (cues come first, so they are kept)
    rng.shuffle(extras)
    opinion = _opinion(rng, item)
    if rng.random() < P_OPINION_FIRST:
        sentences = [opinion, *extras]
    else:
        sentences = [*extras]
        sentences.insert(rng.randrange(1, len(sentences) + 1), opinion)
    text = " ".join(sentences)
    if age == "18-34" and rng.random() < P_LOWERCASE:
        text = text.lower()
    elif age == "55+" and rng.random() < P_DOUBLE_SPACE:
        text = "  ".join(sentences)
    return text


def _item_audience(rng: random.Random, n: int) -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """The dominant combination and all n commenters' profiles (shuffled)."""
    dominant = draw_profile(rng)
    low, high = math.ceil(DOMINANT_SHARE[0] * n), math.floor(DOMINANT_SHARE[1] * n)
    k = min(high, max(low, round(rng.uniform(*DOMINANT_SHARE) * n)))
    while True:
        others = []
        while len(others) < n - k:
            profile = draw_profile(rng)
            if profile != dominant:
                others.append(profile)
        if not others or max(Counter(others).values()) < k:
            break
    profiles = [dominant] * k + others
    rng.shuffle(profiles)
    return dominant, profiles


def generate(seed: int, query: str) -> dict[str, Any]:
    """One synthetic instance for `query` ("user" or "item"), the same for the same arguments."""
    if query not in QUERIES:
        raise ValueError(f"query must be one of {QUERIES}, not {query!r}")
    rng = random.Random(f"{query}:{seed}")
    n = rng.randint(*COMMENTS)
    if query == "user":
        answer = draw_profile(rng)
        profiles = [answer] * n
        items = rng.sample(ITEMS, n)
        item_name = None
    else:
        answer, profiles = _item_audience(rng, n)
        item = rng.choice(ITEMS)
        items = [item] * n
        item_name = item.name
    comments = [{"item": it.name, "text": comment(rng, it, profile)}
                for it, profile in zip(items, profiles, strict=True)]
    return {
        "format": FORMAT,
        "id": f"synthetic-profile-{query}-{seed}",
        "seed": seed,
        "source": SOURCE,
        "synthetic": True,
        "query": query,
        "item": item_name,
        "comments": comments,
        "answer": {"age_group": answer[0], "gender": answer[1]},
        "notes": {"profiles": [{"age_group": a, "gender": g} for a, g in profiles]},
    }


def sample(count: int, first_seed: int = 0) -> list[dict[str, Any]]:
    """`count` instances over seeds first_seed, first_seed + 1, ...: "user" queries at even
    positions, "item" queries at odd ones."""
    return [generate(first_seed + i, QUERIES[i % 2]) for i in range(count)]
