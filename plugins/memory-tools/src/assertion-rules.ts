/**
 * The assertion rules of each language besides English: the data {@link notAsserted} reads (see
 * assertion.ts for what each list means). Patterns are matched against the matching form (NFKC, case
 * folded) of one sentence, or of the whole utterance for do-not-keep requests. Languages written without
 * spaces match their cues as text; the others as whole words.
 *
 * Size: a word table (data, not code), one table per language.
 */
/**
 * The rules of one language. Each pattern is matched against the matching form of one sentence, which is case
 * folded, so it is written folded (lower case) and without the `i` flag: under `iu` V8 matches `\b`, `\w` and
 * letters on a slower path (English's do-not-keep patterns took 15 times as long), and folded text holds
 * nothing the flag would add (ſ and K fold to s and k).
 */
export interface AssertionRules {
  /** Phrases that tell the robot not to keep what is said (matched over the whole utterance). */
  readonly doNotKeep: readonly RegExp[];
  /** Words that make a sentence uncertain. */
  readonly hedges: readonly RegExp[];
  /** Words that make a sentence conditional or hypothetical. */
  readonly conditions: readonly RegExp[];
  /** Someone else's claim, when it comes before the evidence in the sentence. */
  readonly reportedBefore: readonly RegExp[];
  /** Someone else's claim wherever it stands in the sentence. */
  readonly reportedAnywhere: readonly RegExp[];
  /** The operator repeating their own words ("as I said"): not someone else's claim. */
  readonly ownWords: readonly RegExp[];
  /** Negation of a clause. */
  readonly negation: readonly RegExp[];
  /** A negation that belongs to a phrase, not to the clause ("don't forget that…"). */
  readonly notNegating: readonly RegExp[];
  /**
   * Questions without a question mark (inversion, a question word, a sentence-final particle such as か, 吗
   * or -까, a tag such as ", oder"): matched against the sentence without its closing marks.
   */
  readonly questions?: readonly RegExp[];
  /**
   * A request to remember that opens the sentence ("can you remember that…", "could you note…"): what follows
   * it is read as a sentence of its own, and the request's question mark is not the evidence's. Matched against
   * the sentence's reading ({@link sentenceCore}); the match ends where what is to be remembered begins.
   */
  readonly requests?: readonly RegExp[];
  /**
   * What closes a request to remember after what it asks to keep (Chinese "请记住…，好吗"): set aside with the
   * request's mark. Matched against the end of the sentence's reading when a request opens it.
   */
  readonly requestEnds?: readonly RegExp[];
  /**
   * A request to remember that closes the sentence after what it asks to keep, where the language puts it last
   * (Japanese "美咲はコーヒーが好きだって覚えておいてくれる？"): matched against the sentence after the evidence, whole
   * (anchored at both ends); the evidence's sentence then ends where the evidence ends, the request's mark and all.
   */
  readonly requestsAfter?: readonly RegExp[];
  /**
   * A retraction after the evidence, anywhere later in the utterance ("— not!", "Not really.", "Actually no, he
   * doesn't."): the operator takes the statement back. Matched against the utterance after the evidence.
   */
  readonly retractions?: readonly RegExp[];
  /**
   * Whether a negation after the evidence, up to the end of its clause, negates it too: where the negation
   * comes last (Anna mag Tee nicht, 好きじゃない, 먹지 않아요) a model may cut the evidence before it.
   */
  readonly negationAfter?: boolean;
}

/** Every key of a rule set, optional ones included: one left out would read undefined, so the type asks for all. */
const RULE_KEYS = Object.keys({
  doNotKeep: true,
  hedges: true,
  conditions: true,
  reportedBefore: true,
  reportedAnywhere: true,
  ownWords: true,
  negation: true,
  notNegating: true,
  questions: true,
  requests: true,
  requestEnds: true,
  requestsAfter: true,
  retractions: true,
  negationAfter: true,
} satisfies Record<keyof AssertionRules, true>) as ReadonlyArray<keyof AssertionRules>;

/** How each language's built rules are forgotten ({@link forgetBuiltRules}). */
const builtForgetters: Array<() => void> = [];

/**
 * Forgets every language's built rules, so the next read builds them again (tests: rules built before a
 * mutant of the code that builds them would hide it).
 */
export function forgetBuiltRules(): void {
  for (const forget of builtForgetters) forget();
}

/**
 * A language's rules, built at the first read of any of them: compiling the patterns (Unicode property
 * classes, ~0.2 ms each) of every language cost each start-up ~13 ms, `mira mcp`'s included, which reads none.
 * The object is the same before and after; a key the language has no rules for reads undefined.
 */
export function lazily(build: () => AssertionRules): AssertionRules {
  let built: AssertionRules | undefined;
  builtForgetters.push(() => (built = undefined));
  const rules = {};
  for (const key of RULE_KEYS) {
    Object.defineProperty(rules, key, { enumerable: true, get: () => (built ??= build())[key] });
  }
  return Object.freeze(rules) as AssertionRules;
}

/** Whole words: no letter, digit or apostrophe right before, no letter or digit right after. */
const w = (words: string) => new RegExp(`(?<![\\p{L}\\p{N}'’])(?:${words})(?![\\p{L}\\p{N}])`, 'u');
/**
 * A request to remember that opens the sentence ("Kannst du dir merken, dass …", "Peux-tu retenir que …"): the
 * `ask`, an optional comma, and the complementizer `that` — what follows it is what is to be kept (a
 * complementizer is required, so "… merken, ob …", whether, is never one). The match ends where that begins.
 */
export const request = (ask: string, that: string) =>
  new RegExp(`^[¿¡]?\\s*(?:${ask})\\s*,?\\s+(?:${that})(?:\\s+|(?<=['’]))`.normalize('NFKC'), 'u');
/** A cue at the start of a sentence or of a clause after a comma, semicolon or colon. */
const opening = (words: string) => new RegExp(`(?:^|[,;:]\\s*)[\\s"'“„«(]*(?:${words})(?![\\p{L}\\p{N}])`, 'u');
/** A tag at the end of a sentence ("…, oder", "…, vero"), with or without its mark. */
const tag = (words: string) => new RegExp(`,\\s*(?:${words})\\s*[.!?…]*\\s*$`, 'u');

// Stryker disable StringLiteral,Regex: the tables are data; test/fixtures/language-corpus.ts holds them to
// account by the cases it decides, and test/language-rules.test.ts cue by cue.
/** German. */
export const GERMAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?:merk(?:e|t)?\s+(?:dir|euch|ihnen)|speicher(?:e|t|n)?|notier(?:e|t|en)?|behalt(?:e|et|en)?|schreib(?:e|t)?)(?![\p{L}])[^,.:;!?]{0,25}?(?<![\p{L}])nicht(?![\p{L}])/u,
    w('nicht\\s+(?:merken|speichern|notieren|aufschreiben|behalten|festhalten|aufnehmen)'),
    /(?<![\p{L}])vergiss\s+(?:es|das|dies)(?!\s+nicht)(?![\p{L}])/u,
    /(?<![\p{L}])(?:vergiss|vergessen\s+sie|vergesst)(?:\s+(?:bitte|einfach|lieber|ruhig))*\s*,?\s+(?:dass|was)(?![\p{L}])/u,
    w('(?:ganz\\s+)?unter\\s+uns|inoffiziell'),
  ],
  hedges: [
    w(
      'vielleicht|wahrscheinlich|möglicherweise|eventuell|vermutlich|wohl|womöglich|glaube|glaub|denke|vermute|schätze|nehme\\s+an|keine\\s+ahnung|nicht\\s+sicher|ob|könnte|dürfte|kann\\s+sein|scheint',
    ),
  ],
  conditions: [
    w(
      'wenn|falls|sofern|angenommen|es\\s+sei\\s+denn|im\\s+falle?|stell\\s+dir\\s+vor|stellen\\s+sie\\s+sich\\s+vor|nehmen\\s+wir\\s+an|tu\\s+so|wäre|hätte|würde|würden|würdest|möchte\\s+gern|möchten\\s+gern',
    ),
  ],
  reportedBefore: [
    w(
      'sagt|sagte|sagen|meint|meinte|behauptet|behauptete|glaubt|glaubte|denkt|dachte|erzählt|erzählte|erzählt\\s+hat|gesagt|erzählt|gehört|hörte|findet|schwört|soll|sollen',
    ),
  ],
  reportedAnywhere: [
    w('laut|zufolge|angeblich|anscheinend|offenbar|offenbar|man\\s+sagt|heisst\\s+es'),
    /,\s*(?:sagt|sagte|meint|meinte|behauptet|erzählt)(?![\p{L}])/u,
  ],
  ownWords: [w('wie\\s+(?:schon\\s+)?gesagt|wie\\s+ich\\s+(?:schon\\s+|dir\\s+|ihnen\\s+)*(?:sagte|gesagt\\s+habe)')],
  negation: [w('nicht|nie|niemals|kein|keine|keinen|keinem|keiner|keines|nichts|niemand|nirgends|weder|nimmer')],
  notNegating: [w('vergiss\\s+nicht|vergessen\\s+sie\\s+nicht|nicht\\s+vergessen|nicht\\s+nur|nicht\\s+wahr')],
  questions: [
    opening(
      'wer|was|wo|wann|wie(?!\\s+(?:gesagt|schon|ich|du\\s+weisst))|warum|wieso|weshalb|weswegen|welche[rsmn]?|woher|wohin|womit|wovon|worüber',
    ),
    /^[\s"'“„«(]*(?:ist|hat|hast|bist|sind|seid|war|waren|mag|magst|mögen|kann|kannst|will|willst|darf|muss|soll|weisst(?!\s+du\s*,)|wohnt|wohnst|trinkt|trinkst|isst|kennt|kennst|spielt|spielst|arbeitet|liebt|lebt|spricht|fährt|geht|heisst|braucht|nimmt|hatte|wird|würde|hätte|könnte|gibt|macht|raucht|glaubst|meinst|hört)\s/u,
    tag('oder|nicht\\s+wahr|gell|ne|oder\\s+nicht|stimmt'),
    opening('sag\\s+mal|sagen\\s+sie\\s+mal|weisst\\s+du\\s+ob|wissen\\s+sie\\s+ob'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:kannst|könntest|würdest)\\s+du|(?:können|könnten|würden)\\s+sie)\\s+(?:(?:dir|sich|bitte|mal|das)\\s+)*(?:merken|notieren|aufschreiben|speichern|festhalten|behalten',
      'dass',
    ),
  ],
}));

/** French. */
export const FRENCH: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?<![\p{L}])(?:ne\s+(?:le\s+|la\s+|les\s+|l['’]\s*|me\s+|te\s+)?|n['’]\s*)(?:retiens|retenez|note|notez|garde|gardez|enregistre|enregistrez|mémorise|mémorisez|sauvegarde|sauvegardez|écris|écrivez|stocke|stockez|conserve|conservez)(?![\p{L}])/u,
    /(?<![\p{L}]n['’]\s?)(?<![\p{L}])oublie(?:z)?(?:\s+(?:ça|cela|ceci|tout\s+ça)|-le|-la)(?![\p{L}])/u,
    w(
      "pas\\s+besoin\\s+de\\s+(?:le\\s+|la\\s+|l['’]\\s*)?(?:retenir|noter|enregistrer|garder|mémoriser)|(?:c['’]est\\s+)?entre\\s+nous|officieusement",
    ),
  ],
  hedges: [
    w(
      "peut-être|peut\\s+être|probablement|sans\\s+doute|sûrement|je\\s+pense|je\\s+crois|je\\s+suppose|j['’]imagine|il\\s+me\\s+semble|il\\s+se\\s+peut|il\\s+est\\s+possible|pourrait|pas\\s+sûre?|pas\\s+certaine?|je\\s+me\\s+demande|vraisemblablement|possible\\s+que",
    ),
  ],
  conditions: [
    w(
      "si|s['’]il|s['’]ils|au\\s+cas\\s+où|à\\s+condition|à\\s+moins|sauf\\s+si|supposons|imagine|imaginez|imaginons|admettons|en\\s+supposant|mettons|suppose|supposez",
    ),
  ],
  reportedBefore: [
    w(
      "dit|disait|dira|disent|prétend|prétendait|affirme|affirmait|pense|pensait|croit|croyait|raconte|racontait|raconté|assure|jure|trouve|j['’]ai\\s+entendu|entendu\\s+dire",
    ),
  ],
  reportedAnywhere: [
    w(
      "selon|d['’]après|il\\s+paraît|paraît-il|apparemment|soi-disant|on\\s+dit|à\\s+ce\\s+qu['’]il\\s+paraît|à\\s+en\\s+croire",
    ),
    /,\s*(?:dit|disait|affirme|prétend)(?![\p{L}])/u,
  ],
  ownWords: [
    w("comme\\s+je\\s+(?:te\\s+|vous\\s+)?l['’]ai\\s+dit|comme\\s+je\\s+(?:te\\s+|vous\\s+)?(?:disais|le\\s+disais)"),
  ],
  negation: [
    /(?<![\p{L}\p{N}'’])(?:ne|pas|jamais|rien|aucun|aucune|ni|nullement|guère|personne)(?![\p{L}\p{N}])|(?<![\p{L}])n['’]/u,
  ],
  notNegating: [
    /(?<![\p{L}])n['’]\s*oubli(?:e|ez|ons)\s+pas|(?<![\p{L}])non\s+seulement|(?<![\p{L}])n['’]\s*est-ce\s+pas|(?<![\p{L}])ne\s+\p{L}+\s+qu['’e]/u,
  ],
  questions: [
    /est-ce\s+qu|qu['’]est-ce/u,
    // Inversion (aime-t-il), but not a reporting verb's (paraît-il, dit-elle).
    /(?<![\p{L}])(?!(?:paraît|parait|dit|disait|semble|affirme|prétend|ajoute|explique|répond|assure)-)\p{L}+-(?:t-)?(?:il|elle|ils|elles|on|je|tu|nous|vous)(?![\p{L}])/u,
    opening('qui|quoi|quel|quelle|quels|quelles|où|quand|comment|pourquoi|combien'),
    tag("non|hein|n['’]est-ce\\s+pas|pas\\s+vrai"),
  ],
  negationAfter: true,
  requests: [
    request(
      "(?:est-ce\\s+que\\s+)?(?:tu\\s+peux|vous\\s+pouvez|tu\\s+pourrais|vous\\s+pourriez|peux-tu|pouvez-vous|pourrais-tu|pourriez-vous)\\s+(?:(?:bien|stp|s'il\\s+te\\s+plaît|s'il\\s+vous\\s+plaît)\\s+)*(?:retenir|noter|mémoriser|enregistrer|te\\s+souvenir|vous\\s+souvenir|garder\\s+en\\s+(?:tête|mémoire))",
      "que|qu['’]",
    ),
  ],
}));

/** Spanish. */
export const SPANISH: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'no\\s+(?:lo\\s+|la\\s+|los\\s+|las\\s+|me\\s+lo\\s+|te\\s+lo\\s+)?(?:guardes|guarde|guardéis|apuntes|apunte|anotes|anote|grabes|grabe|recuerdes|memorices|registres|escribas|almacenes)',
    ),
    w(
      'olvídalo|olvídala|olvídate\\s+de\\s+(?:eso|esto|lo\\s+de|que)|olvida\\s+(?:eso|esto|lo\\s+que|lo\\s+de|que)|no\\s+hace\\s+falta\\s+que\\s+lo\\s+(?:recuerdes|apuntes|guardes)|entre\\s+nosotros|extraoficialmente',
    ),
  ],
  hedges: [
    w(
      'quizás|quizá|tal\\s+vez|a\\s+lo\\s+mejor|probablemente|posiblemente|seguramente|creo|pienso\\s+que|supongo|me\\s+parece|no\\s+estoy\\s+segur[oa]|no\\s+sé\\s+si|puede\\s+que|podría|me\\s+pregunto',
    ),
    opening('igual|lo\\s+mismo'),
  ],
  conditions: [
    w(
      'si|en\\s+caso\\s+de|a\\s+menos\\s+que|salvo\\s+que|supongamos|suponiendo|imagina|imagínate|imaginemos|pongamos\\s+que|siempre\\s+y\\s+cuando',
    ),
  ],
  reportedBefore: [
    w(
      'dice|dijo|dicen|decía|cree|creía|piensa|pensaba|afirma|asegura|cuenta|contó|contaron|me\\s+dijeron|dijeron|he\\s+oído|oí|escuché|jura|sostiene',
    ),
  ],
  reportedAnywhere: [
    w('según|al\\s+parecer|aparentemente|supuestamente|dizque|por\\s+lo\\s+visto|dicen\\s+que'),
    /,\s*(?:dice|dijo|afirma)(?![\p{L}])/u,
  ],
  ownWords: [w('como\\s+(?:ya\\s+)?(?:te\\s+|le\\s+|os\\s+)?(?:dije|he\\s+dicho|decía)')],
  negation: [w('no|nunca|jamás|nada|nadie|ningún|ninguno|ninguna|ni|tampoco')],
  notNegating: [w('no\\s+(?:te\\s+)?olvides|no\\s+se\\s+te\\s+olvide|no\\s+solo|no\\s+sólo|¿no|,\\s*no\\s*$')],
  questions: [
    w('qué|quién|quiénes|dónde|adónde|cuándo|cómo|cuál|cuáles|cuánto|cuánta|cuántos|cuántas|sabes\\s+si|sabe\\s+si'),
    tag('verdad|no|eh|cierto|sí\\s+o\\s+no'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:puedes|podrías|puede|podría|pueden|podrían)\\s+(?:(?:usted|por\\s+favor)\\s+)*(?:recordar|anotar|apuntar|guardar|memorizar|acordarte\\s+de|acordarse\\s+de|tener\\s+en\\s+cuenta)',
      'que',
    ),
  ],
}));

/** Italian. */
export const ITALIAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    w('non\\s+(?:lo\\s+|la\\s+)?(?:salvar|memorizzar|ricordar|annotar|segnar|scriver|registrar|tener)\\p{L}*'),
    w(
      'dimenticalo|dimenticala|dimenticatelo|dimentica\\s+(?:tutto|questo|quello|quanto|che|di)|dimenticate\\s+che|scordati\\s+(?:che|di|quello)|scordatelo|lascia\\s+perdere|tra\\s+(?:noi|di\\s+noi)|in\\s+via\\s+ufficiosa',
    ),
  ],
  hedges: [
    w(
      'forse|probabilmente|magari|credo|penso|suppongo|immagino|mi\\s+sembra|mi\\s+pare|non\\s+sono\\s+sicur[oa]|non\\s+so\\s+se|può\\s+darsi|potrebbe|mi\\s+chiedo|chissà|presumibilmente|sicuramente',
    ),
  ],
  conditions: [
    opening('se'),
    // The conditional mood: a wish or a supposition ("vivrebbe volentieri al mare", "vorrei").
    w('\\p{L}{2,}(?:rebbe|rebbero|remmo)|vorrei|vorresti'),
    w(
      'se\\s+(?:il|lo|la|i|gli|le|un|una|io|tu|lui|lei|noi|voi|loro|non|piove|è|ha|fosse|avesse|vuoi|vuole|puoi|può)|a\\s+meno\\s+che|nel\\s+caso|in\\s+caso|supponiamo|immagina|immaginiamo|immaginate|qualora|purché|ammesso\\s+che|poniamo\\s+che|mettiamo\\s+che',
    ),
  ],
  reportedBefore: [
    w(
      'dice|dicono|diceva|ha\\s+detto|disse|hanno\\s+detto|pensa|crede|credeva|sostiene|afferma|racconta|ha\\s+raccontato|mi\\s+ha\\s+raccontato|ho\\s+sentito|giura|dicevano',
    ),
  ],
  reportedAnywhere: [
    w(
      'secondo|a\\s+quanto\\s+pare|pare\\s+che|sembra\\s+che|a\\s+detta\\s+di|apparentemente|dicono\\s+che|a\\s+sentire',
    ),
    /,\s*(?:dice|ha\s+detto|afferma)(?![\p{L}])/u,
  ],
  ownWords: [w('come\\s+(?:ti\\s+|vi\\s+|le\\s+|gli\\s+)?(?:ho\\s+(?:già\\s+)?detto|dicevo)')],
  negation: [w('non|mai|niente|nulla|nessuno|nessuna|né|neanche|nemmeno|neppure')],
  notNegating: [
    w('non\\s+(?:ti\\s+)?dimenticar\\p{L}*|non\\s+scordar\\p{L}*|non\\s+solo|non\\s+soltanto|o\\s+no|,\\s*no\\s*$'),
  ],
  questions: [
    opening(
      'chi|che\\s+cosa|cosa|dove|quando|come(?!\\s+(?:ti|vi|le|gli)?\\s*(?:ho|dicevo|sai|sapete))|come\\s+mai|perché|quale|quali|quanto|quanta|quanti|quante',
    ),
    w('sai\\s+se|sapete\\s+se'),
    tag('vero|no|eh|giusto|o\\s+no'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:puoi|potresti|può|potrebbe)\\s+(?:(?:per\\s+favore)\\s+)?(?:ricordare|ricordarti|ricordarsi|segnare|segnarti|annotare|memorizzare|tenere\\s+a\\s+mente)',
      'che',
    ),
  ],
}));

/** Portuguese. */
export const PORTUGUESE: AssertionRules = lazily(() => ({
  doNotKeep: [
    w(
      'não\\s+(?:o\\s+|a\\s+|me\\s+)?(?:guarde|guardes|anote|anotes|salve|salves|grave|graves|memorize|registre|registe|escreva|armazene|lembre)|não\\s+(?:precisa|precisas)\\s+(?:de\\s+)?(?:guardar|anotar|lembrar|salvar|gravar)|não\\s+(?:guarda|anota|salva|grava)\\s+(?:isso|isto)',
    ),
    w('esque(?:ce|ça)\\s+(?:isso|isto|o\\s+que\\s+eu\\s+disse)|cá\\s+entre\\s+nós|entre\\s+nós'),
    /(?:^|[.!?]\s*)esque(?:ce|ça)(?![\p{L}])/u,
  ],
  hedges: [
    w(
      'talvez|provavelmente|possivelmente|acho|penso\\s+que|creio|suponho|não\\s+tenho\\s+certeza|não\\s+sei\\s+se|pode\\s+ser\\s+que|será\\s+que|quem\\s+sabe|deve\\s+ser|imagino',
    ),
  ],
  conditions: [
    opening('se'),
    w(
      'se\\s+(?:o|a|os|as|eu|tu|você|vocês|ele|ela|eles|elas|nós|não|fosse|tiver|for|vier|chover)|caso|a\\s+menos\\s+que|suponha|suponhamos|supondo|imagine|imagina|imaginemos|desde\\s+que',
    ),
  ],
  reportedBefore: [
    w(
      'diz|disse|dizem|disseram|dizia|acha|achava|pensa|acredita|afirma|conta|contou|me\\s+contou|ouvi|ouvi\\s+dizer|jura|garante',
    ),
  ],
  reportedAnywhere: [
    w('segundo|de\\s+acordo\\s+com|parece\\s+que|aparentemente|supostamente|pelo\\s+visto|dizem\\s+que|diz\\s+que'),
    /,\s*(?:diz|disse|afirma)(?![\p{L}])/u,
  ],
  ownWords: [w('como\\s+(?:eu\\s+)?(?:te\\s+|lhe\\s+)?(?:disse|falei|já\\s+disse)')],
  negation: [w('não|nunca|jamais|nada|ninguém|nenhum|nenhuma|nem|tampouco')],
  notNegating: [w('não\\s+(?:se\\s+)?esque(?:ça|ce|ças)|não\\s+só|não\\s+apenas|não\\s+é\\s*$|ou\\s+não')],
  questions: [
    opening(
      'quem|o\\s+que|onde|quando|como(?!\\s+(?:eu\\s+)?(?:te\\s+|lhe\\s+|le\\s+|ya\\s+)?(?:disse|dije|he\\s+dicho|falei|já|você\\s+sabe|sabes))|qual|quais|quanto|quanta|quantos|quantas|por\\s+que|porque|cadê',
    ),
    w('será\\s+que|sabe\\s+se|sabes\\s+se|né'),
    tag('né|não\\s+é|certo|não|verdade'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:(?:você|tu)\\s+)?(?:pode|podes|poderia|podia|consegue)\\s+(?:(?:por\\s+favor)\\s+)?(?:se\\s+)?(?:lembrar|guardar|anotar|memorizar|registrar|registar)(?:-se)?(?:\\s+de)?',
      'que',
    ),
  ],
}));

/** Dutch. */
export const DUTCH: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?<![\p{L}])(?:onthoud|bewaar|noteer|sla|schrijf|leg)(?![\p{L}])[^,.:;!?]{0,20}?(?<![\p{L}])niet(?![\p{L}])/u,
    w('niet\\s+(?:onthouden|opslaan|bewaren|noteren|opschrijven|vastleggen)'),
    /(?<![\p{L}])vergeet\s+(?:(?:maar|gewoon|alsjeblieft|het)\s+)*(?:het|dat|dit)(?!\s+niet)(?![\p{L}])/u,
    w('onder\\s+ons|off\\s+the\\s+record'),
  ],
  hedges: [
    w(
      'misschien|waarschijnlijk|wellicht|mogelijk|mogelijkerwijs|vermoedelijk|ik\\s+denk|denk\\s+ik|ik\\s+geloof|geloof\\s+ik|volgens\\s+mij|ik\\s+vermoed|niet\\s+zeker|zou\\s+kunnen|ik\\s+gok|ik\\s+vraag\\s+me\\s+af|ik\\s+weet\\s+niet\\s+of|of',
    ),
  ],
  conditions: [
    opening('als|mocht'),
    w(
      'als\\s+(?:hij|zij|ze|het|ik|je|jij|we|wij|u|jullie|er)|indien|tenzij|stel\\s+dat|stel\\s+je\\s+voor|veronderstel|in\\s+het\\s+geval|mits|wanneer',
    ),
  ],
  reportedBefore: [
    w(
      'zegt|zei|zeggen|zeiden|beweert|beweerde|denkt|dacht|vindt|gelooft|vertelde|vertelt|verteld|hoorde|gehoord|zweert|zou|zouden',
    ),
  ],
  reportedAnywhere: [
    w('volgens|schijnbaar|blijkbaar|naar\\s+verluidt|men\\s+zegt|ze\\s+zeggen|zogenaamd'),
    /,\s*(?:zegt|zei)(?![\p{L}])/u,
  ],
  ownWords: [
    w('zoals\\s+(?:ik\\s+)?(?:al\\s+)?(?:zei|gezegd)|zoals\\s+ik\\s+(?:je\\s+|u\\s+)?(?:al\\s+)?(?:zei|vertelde)'),
  ],
  negation: [w('niet|geen|nooit|niets|niks|niemand|nergens|noch')],
  notNegating: [w('vergeet\\s+niet|niet\\s+vergeten|niet\\s+alleen|niet\\s+waar|of\\s+niet')],
  questions: [
    opening('wie|wat|waar|wanneer|hoe|waarom|welke|welk|hoeveel|waarheen|waarvan'),
    /^[\s"'“„«(]*(?:is|heeft|heb|hebben|ben|bent|zijn|was|waren|kan|kun|kunt|wil|wilt|mag|moet|zal|zou|woont|drinkt|eet|speelt|werkt|houdt|kent|weet|gaat|rookt|spreekt|doet|vindt)\s/u,
    tag('toch|hè|he|niet\\s+waar|of\\s+niet|klopt\\s+dat'),
  ],
  negationAfter: true,
  requests: [
    request(
      '(?:kun|kan|zou|wil)\\s+(?:je|jij|u)\\s+(?:(?:alsjeblieft|even|dat)\\s+)*(?:onthouden|noteren|opschrijven|opslaan)',
      'dat',
    ),
  ],
}));

/** Japanese. */
export const JAPANESE: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?:覚え|おぼえ|保存し|記録し|メモし|記憶し|書き留め|控え|登録し)(?:ないで|なくて(?:いい|も|大丈夫)|なくていい|ちゃだめ|ては(?:いけない|だめ))/u,
    /忘れて(?![たい])|オフレコ|内緒|ないしょ|ここだけの話/u,
  ],
  hedges: [
    /たぶん|多分|おそらく|恐らく|かもしれ|かも(?=[。！？、ねよなだでけ]|$)|と思う|と思います|と思うけど|と思った|だろう|でしょう|みたい|ような気|気がする|はず|確か|どうやら|かな|かしら|わからない|分からない|知らないけど/u,
  ],
  conditions: [/もし|もしも|仮に|なら|ならば|たら|だら|としたら|とすれば|れば|場合|想像して|だとしたら/u],
  reportedBefore: [],
  reportedAnywhere: [
    /と言って|って言って|と言った|って言った|と言う|って言う|と聞いた|って聞いた|と聞き|そうだ|そうです|そうよ|らしい|によると|によれば|とのこと|って話|と話して|だって$|んだって|言ってた|言ってました/u,
  ],
  ownWords: [/言ったように|言った通り|言ったとおり/u],
  negation: [/ない|なかっ|ません|ませ|ず(?![っつ])|ぬ|無い|なく|じゃな|ではな/u],
  notNegating: [
    /忘れないで|忘れずに|忘れない(?:でね|ように)|少ない|危ない|汚い|切ない|つまらない|ではないか|じゃないですか/u,
  ],
  questions: [
    /(?:ですか|ますか|のか|んですか|でしょうか|だろうか|かな|かしら|っけ|(?<![静確豊暖愚僅細穏柔滑明])か)$/u,
    /(?:誰|どこ|いつ|なぜ|どうして|どれ|どんな|何が|何を)/u,
  ],
  negationAfter: true,
  // "…だって覚えておいてくれる？", "…と覚えておいてください", "…ってメモしといて" (a quotative って or と, then the
  // request: Martin, A Reference Grammar of Japanese, ch. 17).
  requestsAfter: [
    /^\s*(?:だ|です)?(?:って|と|ということを|ってことを|ことを)\s*(?:覚えて|おぼえて|記憶して|メモして|記録して|登録して)(?:お(?:いて|く)|と(?:いて|く))?(?:くれる|くれない|くれます|くれません|ください|下さい|もらえる|もらえない|もらえます|もらえません|ほしい|欲しい|ね|よ)?(?:か)?[\s?？。!！]*$/u,
  ],
}));

/** Chinese. */
export const CHINESE: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?:别|不要|不用|不必|无需|甭|别再)[^，。,.！？]{0,4}?(?:记|存|保存|记录|写下|录)|忘掉|忘了(?:吧|它|这个)|忘记(?:吧|它|这个)|保密/u,
  ],
  hedges: [
    /可能|也许|或许|大概|好像|似乎|我觉得|我想|我猜|应该|估计|说不定|不确定|不知道|不一定|恐怕|看样子|吧[。！]?$/u,
  ],
  conditions: [/如果|要是|假如|假设|万一|的话|除非|想象|假装|只要|倘若|若是/u],
  reportedBefore: [/(?<!听)说(?![^，。]{0,2}(?:语|话|文))|认为|告诉我|声称|表示/u],
  reportedAnywhere: [/听说|据说|根据|据[^，。]{0,6}说|传说|有人说|他们说|据称|觉得/u],
  ownWords: [/我说过|就像我说的|我刚才说了|我刚说了|我已经说过/u],
  negation: [/不|没|从未|绝不|未曾/u],
  notNegating: [
    /不错|不过|不少|不但|不仅|不管|不得不|差不多|不断|不久|了不起|对不起|不然|别忘了|不要忘了|没关系|[不没][^，。,.！？的不没]{1,3}的/u,
  ],
  questions: [
    /[吗嗎么麼呢][。！]?$/u,
    /(.)[不没]\1/u,
    // 请问 "may I ask", 是否 "whether": a question however it ends.
    /请问|是否/u,
    /谁(?![都也])|什么(?![都也])|为什么|(?<!知道|会|懂得|学会|明白)怎么|多少|哪(?:里|儿|个|些)?(?![都也])/u,
  ],
  negationAfter: true,
  // "请记住…", "你能帮我记住…吗": a modal, please or "for me" is required ("你记得…吗", do you remember…, asks).
  requests: [
    /^(?:(?:请|麻烦)(?:你|您)?(?:帮我|替我)?|(?:你|您)?(?:能|可以|能不能|可不可以|能否)(?:帮我|替我)?|帮我)(?:记住|记一下|记下|记着)(?:一下)?[，,：:]?\s*/u,
  ],
  // The request's own close, after what is to be kept: 吗, 好吗, 可以吗, 行吗, 好不好.
  requestEnds: [/(?:好吗|可以吗|行吗|好不好|吗)[。！]?$/u],
}));

/** Korean. */
export const KOREAN: AssertionRules = lazily(() => ({
  doNotKeep: [
    /(?:기억|저장|기록|메모|적)(?:하)?지\s*(?:마|말)|(?:기억|저장|기록|메모)\s*(?:안|하지\s*않아도)\s*(?:해도|돼)|잊어\s*(?:버려|줘|주세요|버리세요)|잊으세요|비밀로\s*해/u,
  ],
  hedges: [
    /(?:^|\s)(?:아마|아마도|혹시|어쩌면)(?=\s|$)|것\s*같|거\s*같|듯(?:하|해|싶)|모르겠|지도\s*몰라|지도\s*모르|확실하지\s*않|확실치|생각해|생각합니다|생각이\s*들|겠지|ㄹ걸|을걸|할걸|일걸|거예요|거야|것이다|텐데/u,
  ],
  conditions: [/만약|만일|가령|(?<![냉짬쫄라])면(?=[\s,]|$)|다면|라면(?=[\s,]|$)|경우에|상상해|치고/u],
  reportedBefore: [],
  reportedAnywhere: [
    /다고|라고|냐고|자고|대요|래요|[가-힣]대(?=[\s.!?]|$)|더라|다던|라던|(?:단다|란다)(?=[\s.!?]|$)|따르면|들었|그러는데|그러던데|말로는|말하길/u,
  ],
  ownWords: [/말했듯이|말한\s*것처럼|말했다시피/u],
  negation: [/(?:^|\s)(?:안|못)(?=\s)|않|없|아니[에야다요라]|아닙|아닌|(?:^|\s)전혀(?=\s)/u],
  notNegating: [/잊지\s*(?:마|말)|잊으면\s*안|없이/u],
  questions: [/(?:[인는은던]가요|나요|까요?|(?<![머])니|냐|는가|은가|인가|는지|은지|을지|죠|지요)[.!]?$/u],
  negationAfter: true,
  // "민수가 커피를 좋아한다고 기억해 줄래요?": what is kept, quoted with 고, then the request (Sohn, The Korean
  // Language, § 8.3: the quotative -다고/-라고). The quotative belongs to the request, not to a report.
  requestsAfter: [
    /^\s*(?:꼭\s*)?(?:기억해|기억해\s*(?:둬|두|놔)|메모해|적어|저장해|기록해)\s*(?:줘|줘요|주세요|줄래|줄래요|줄\s*수\s*있어요?|줄\s*수\s*있나요|주실래요|주시겠어요|주실\s*수\s*있나요|둬|둬요|두세요|놔|놔요)?\s*[?？.!。]*\s*$/u,
  ],
  requestEnds: [/(?<=[다라])고$/u],
}));
// Stryker restore StringLiteral,Regex
