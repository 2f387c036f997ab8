// Korean particles chosen by the word they follow: "{seat:이}" becomes "1번 자리가" or "철수가"/"민준이".
// The same rule is written in Python (companion/web/hangul.py); both are checked against
// tests/web/pages/particle_cases.json.

/** Marker (either form) -> [after a final consonant, after a vowel]; 으로/로 also takes 로 after ㄹ. */
export const PARTICLES = {
  "이": ["이", "가"], "가": ["이", "가"],
  "을": ["을", "를"], "를": ["을", "를"],
  "은": ["은", "는"], "는": ["은", "는"],
  "과": ["과", "와"], "와": ["과", "와"],
  "으로": ["으로", "로"], "로": ["으로", "로"],
};

// Final sound of a number's last digit read in Sino-Korean (영 일 이 삼 사 오 육 칠 팔 구): 0 a vowel, 1 a
// consonant, 2 ㄹ; a number ending in zeros ends in 영, 십, 백, 천, 만 or 억, always a consonant other than ㄹ.
const DIGIT_FINAL = { 0: 1, 1: 2, 2: 0, 3: 1, 4: 0, 5: 0, 6: 1, 7: 2, 8: 2, 9: 0 };
// A letter said by its name (an abbreviation like "CU", a lone "L"): L and R end in ㄹ, M and N in a consonant.
const LETTER_FINAL = { l: 2, r: 2, m: 1, n: 1 };
// An English word ending in these is said with a final consonant ("Tom", "Kim", "Bob"; "Bill" ends in ㄹ).
const WORD_FINAL = { l: 2, m: 1, n: 1, b: 1, c: 1, d: 1, g: 1, k: 1, p: 1, t: 1 };
// Endings Korean says with a vowel after them: David 데이비드, Mark 마크, Robert 로버트 (Jack 잭, Pat 팻 keep
// their consonant).
const SAID_WITH_VOWEL = /(d|[^aeiouyc]k|[^aeiouyt]t)$/i;

/** How a word ends when read aloud: 0 a vowel, 1 a consonant, 2 the consonant ㄹ. */
export function finalSound(word) {
  const s = String(word).replace(/[^0-9A-Za-z\uAC00-\uD7A3]+$/u, "");
  if (!s) return 0;
  const last = s[s.length - 1];
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const jong = (code - 0xac00) % 28;
    return jong === 0 ? 0 : jong === 8 ? 2 : 1;
  }
  if (/[0-9]/.test(last)) {
    return DIGIT_FINAL[last];
  }
  const latin = s.match(/[A-Za-z]+$/)[0];
  if (latin.length === 1 || latin === latin.toUpperCase()) return LETTER_FINAL[last.toLowerCase()] ?? 0;
  if (/ng$/i.test(latin)) return 1;
  if (SAID_WITH_VOWEL.test(latin)) return 0;
  return WORD_FINAL[last.toLowerCase()] ?? 0;
}

/** The particle for a marker after a word: "이" after "책" is "이", after "사과" is "가". */
export function particle(word, marker) {
  const pair = PARTICLES[marker];
  if (!pair) throw new Error(`unknown particle marker ${marker}`);
  const end = finalSound(word);
  if (pair[0] === "으로") return end === 1 ? "으로" : "로";
  return end === 0 ? pair[1] : pair[0];
}

/** A word with its particle attached ("보석" + "을" -> "보석을"); no marker leaves the word as it is. */
export function withParticle(word, marker) {
  return marker ? `${word}${particle(word, marker)}` : String(word);
}
