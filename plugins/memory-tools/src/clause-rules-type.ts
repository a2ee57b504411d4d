/** The shape of one language's clause table (clause-rules.ts and clause-rules-more.ts hold the tables). */

/** The words of one language that open a clause of their own, and the words that say the language is in use. */
export interface ClauseRules {
  /** Function words frequent in the language and rare elsewhere: how it is recognised. */
  readonly markers: readonly string[];
  /**
   * The conjunctions that also join two subjects of one clause: right after the subject and before one
   * more name or pronoun ("You and Alice both like jazz") they open no clause. Never "or": "Alice or Bob
   * owns the van" says neither owns it.
   */
  readonly coordinators: readonly string[];
  /** Coordinating conjunctions and subordinators that start a clause with its own subject. */
  readonly conjunctions: readonly string[];
  /** Relative pronouns and adverbs ("who likes chess"). */
  readonly relatives: readonly string[];
  /** Complementizers that open a clause only before a name or a pronoun ("knows that Bob…", not "that tea"). */
  readonly complementizers: readonly string[];
  /** Personal pronouns: what a complementizer before one introduces is a clause. */
  readonly pronouns: readonly string[];
  /** The language's code (ISO 639-1). */
  readonly language: string;
  /**
   * The script the language is written in, when it is not Latin (`Cyrillic`, `Arabic`, `Hebrew`, `Devanagari`,
   * `Thai`; Japanese, Chinese and Korean are read by their scripts before any table): text mostly in that script
   * is read as one of the languages written in it.
   */
  readonly script?: string;
  /**
   * Letters or word shapes that say a word in lower case is of this language (Polish ł, Turkish ı and -iyor,
   * Vietnamese ơ and ư, Russian ы, Ukrainian ї): counted as a marker word. A capitalised word is a name.
   */
  readonly letters?: RegExp;
  /** Words of the clause lists that are frequent words or names of other languages: no sign of this one. */
  readonly notMarkers?: readonly string[];
  /** For a language written without spaces: its marker words as found inside the text (global). */
  readonly markerText?: RegExp;
  /**
   * Whether a dash right after the subject stands for "is" (Russian "Игорь — брат Светланы"): there it opens
   * no clause.
   */
  readonly copulaDash?: boolean;
  /**
   * A clause boundary inside the text between the subject and the value that words alone do not show: a
   * connective inside a word (Japanese けど, Korean -지만), or a second topic (Japanese は, Korean 은/는).
   * Matched against that text's matching form.
   */
  readonly clauseMarks?: RegExp;
  /**
   * The subject as a possessor, right after it: "Alice's friend Bob likes…", "田中さんの友達の…",
   * "张伟的朋友…", "민호의 친구…" — the verb's subject is the relative, not the one named. Matched against the
   * matching form of the text between the subject and a value after it.
   */
  readonly possessorAfter?: RegExp;
  /**
   * The subject as a possessor, right before it: "the brother of Alice, Tom, likes…". Matched against the
   * matching form of the evidence before the subject, when the value follows the subject.
   */
  readonly possessorBefore?: RegExp;
  /**
   * Another noun marked as the subject of the value's own clause, right before a value that comes before
   * the subject: 旦那さんが医者の陽菜, 太太是医生的小刚, 남편이 의사인 유나 ("Hina, whose husband is a doctor") —
   * the value is that noun's. Matched against the matching form of the evidence before the value.
   */
  readonly ownerBefore?: RegExp;
  /**
   * The value inside a clause that modifies a noun after it — a relative clause where the language puts it
   * before its noun (喜欢下棋的李娜, 猫が好きな美咲さん, 커피를 좋아하는 지훈이): the value is that noun's, not the
   * subject's. Matched against the matching form of the evidence after a value that follows the subject.
   */
  readonly relativeAfter?: RegExp;
  /**
   * What a language writes onto a name or a value inside the same word, where it has no apostrophe: Swedish's
   * genitive -s (Elsas, Saras), Turkish's case and possessive endings (mantıya, sınıfa, baklavasını). A name or
   * value may end inside a word of letters when the rest of that word matches this whole (anchored, against
   * the matching form).
   */
  readonly wordEndings?: RegExp;
}
