// A labelled set of note pairs for Find Duplicates, written by hand as people keep household notes: the
// same fact said again in other words (paraphrases, re-saves with small edits, reordered phrases,
// contractions, a sentence that starts with "Don't" or "Won't") and near misses (the same template with
// another name, number, day, time or place, or the opposite). Unlike duplicates-labelled.ts, nothing here is
// generated from templates: each pair is written out, so it measures paraphrases the generator never makes.

export interface LabelledPair {
  readonly a: string;
  readonly b: string;
  /** Whether the two notes state the same fact (Find Duplicates should pair them). */
  readonly same: boolean;
}

const same = (a: string, b: string): LabelledPair => ({ a, b, same: true });
const differ = (a: string, b: string): LabelledPair => ({ a, b, same: false });

export const PARAPHRASE_PAIRS: readonly LabelledPair[] = [
  // Contractions and sentence-initial negations.
  same("Don't vacuum the living room while the baby naps", 'Do not vacuum the living room while the baby naps'),
  same("Won't need a lift to the station on Friday", 'Will not need a lift to the station on Friday'),
  same("Don't give the dog chocolate", 'Do not give the dog chocolate'),
  same("Doesn't like the heating above 20 degrees", 'Does not like the heating above 20 degrees'),
  same("Can't open the back gate from outside", 'Cannot open the back gate from outside'),
  same("Don't water the cactus more than once a month", "Don't water the cactus more than once a month."),
  same("Grandma can't climb the stairs on her own", 'Grandma cannot climb the stairs on her own'),
  same("It's Sam's turn to take out the bins", 'It is Sam’s turn to take out the bins'),
  // Re-saves with small edits: punctuation, case, a dropped article, a typo, "please note".
  same('The spare house key is under the blue flower pot', 'the spare house key is under the blue flowerpot'),
  same('The wifi password is on the back of the router', 'Wifi password is on the back of the router'),
  same('Recycling goes out every Tuesday night', 'recycling goes out every tuesday night!'),
  same('Please note the boiler service is due in March', 'The boiler service is due in March'),
  same('Mum takes her blood pressure pills at breakfast', 'Mum takes her blood presure pills at breakfast'),
  same('The fuse box is in the cupboard under the stairs', 'The fuse box is in the cupboard under the stairs.'),
  same('Remember that Leo is allergic to peanuts', 'Leo is allergic to peanuts'),
  same('The dishwasher tablets are in the cupboard by the sink', 'Dishwasher tablets are in the cupboard by the sink'),
  same('Water the tomatoes every evening in summer', 'water the tomatoes every evening in the summer'),
  same(
    'FYI the window cleaner comes on the first Monday of the month',
    'The window cleaner comes on the first Monday of the month',
  ),
  // Reordered phrases.
  same('Every Thursday the cleaner comes at 10', 'The cleaner comes at 10 every Thursday'),
  same('In the morning Ana drinks green tea', 'Ana drinks green tea in the morning'),
  same('On Sundays we eat lunch at grandpa’s', 'We eat lunch at grandpa’s on Sundays'),
  same('At night the hallway light stays on', 'The hallway light stays on at night'),
  same('For the cat, the vet is Dr Okafor', 'The cat’s vet is Dr Okafor'),
  // Paraphrases: other words for the same fact.
  same('Ana prefers oat milk in her coffee', 'Ana likes oat milk in her coffee'),
  same('The kids go to bed at 8', 'The kids’ bedtime is 8'),
  same('The car keys hang on the hook by the front door', 'Car keys are on the hook next to the front door'),
  same('Tom is vegetarian', 'Tom does not eat meat'),
  same('The bins are collected on Wednesday morning', 'Bin collection is Wednesday morning'),
  same('The plumber’s number is 0161 496 0321', 'Plumber: 0161 496 0321'),
  same('Feed the fish twice a day', 'The fish are fed twice a day'),
  same('Grace is coming to stay next weekend', 'Grace will stay with us next weekend'),
  same('The first aid kit is in the bathroom cabinet', 'There is a first aid kit in the bathroom cabinet'),
  same('Dad hates loud music after 10 pm', 'Dad dislikes loud music after 10 pm'),
  same('The router needs a restart when the internet drops', 'Restart the router when the internet drops'),
  same('Milo walks the dog before school', 'Before school, Milo takes the dog for a walk'),
  same('The thermostat should stay at 19 degrees', 'Keep the thermostat at 19 degrees'),
  same('The torch is in the kitchen drawer', 'The flashlight is in the kitchen drawer'),
  same('Ines is allergic to cats', 'Ines has a cat allergy'),
  same('We are out of dishwasher salt', 'Dishwasher salt has run out'),
  same('The guest room sheets are in the top cupboard', 'Sheets for the guest room are in the top cupboard'),
  // Near misses: another person.
  differ('Leo is allergic to peanuts', 'Mia is allergic to peanuts'),
  differ('Ana drinks green tea in the morning', 'Tom drinks green tea in the morning'),
  differ('Grace is coming to stay next weekend', 'Priya is coming to stay next weekend'),
  differ("Don't let Rex out after dark", "Don't let Biscuit out after dark"),
  differ('Milo walks the dog before school', 'Ava walks the dog before school'),
  // Another number.
  differ('The cleaner comes at 10 every Thursday', 'The cleaner comes at 11 every Thursday'),
  differ('The kids go to bed at 8', 'The kids go to bed at 9'),
  differ('Keep the thermostat at 19 degrees', 'Keep the thermostat at 21 degrees'),
  differ('The plumber’s number is 0161 496 0321', 'The plumber’s number is 0161 496 0322'),
  differ('Feed the fish twice a day', 'Feed the fish three times a day'),
  differ('The gate code is 4471', 'The gate code is 4417'),
  // Another day or time.
  differ('Recycling goes out every Tuesday night', 'Recycling goes out every Thursday night'),
  differ('The bins are collected on Wednesday morning', 'The bins are collected on Wednesday evening'),
  differ('Mum takes her blood pressure pills at breakfast', 'Mum takes her blood pressure pills at dinner'),
  differ(
    'The window cleaner comes on the first Monday of the month',
    'The window cleaner comes on the last Monday of the month',
  ),
  differ('The boiler service is due in March', 'The boiler service is due in September'),
  // Another place or object.
  differ('The spare house key is under the blue flower pot', 'The spare house key is under the red flower pot'),
  differ('The fuse box is in the cupboard under the stairs', 'The hoover is in the cupboard under the stairs'),
  differ('The first aid kit is in the bathroom cabinet', 'The first aid kit is in the kitchen cabinet'),
  differ('The car keys hang on the hook by the front door', 'The car keys hang on the hook by the back door'),
  differ('The torch is in the kitchen drawer', 'The scissors are in the kitchen drawer'),
  differ(
    'The dishwasher tablets are in the cupboard by the sink',
    'The dishwasher tablets are in the cupboard by the oven',
  ),
  differ('The guest room sheets are in the top cupboard', 'The guest room towels are in the top cupboard'),
  differ('Water the tomatoes every evening in summer', 'Water the roses every evening in summer'),
  differ('The wifi password is on the back of the router', 'The wifi password is on the fridge door'),
  // The opposite.
  differ("Don't vacuum the living room while the baby naps", 'Vacuum the living room while the baby naps'),
  differ('Tom eats meat', 'Tom does not eat meat'),
  differ('The hallway light stays on at night', 'The hallway light stays off at night'),
  differ('Ana prefers oat milk in her coffee', 'Ana prefers no milk in her coffee'),
  differ('The back gate is locked at night', 'The back gate is never locked at night'),
];
