/** The server rejects shorter passwords; the form checks first so the member is not surprised. */
export const minPasswordLength = 12;

/** 0 is below the minimum length; 1 to 4 run from weak to strong. */
export type PasswordStrength = { score: 0 | 1 | 2 | 3 | 4; label: string; hint: string };

// A length-first heuristic: at 12+ characters, length and variety matter far more than any
// single rule, and repetition ("aaaaaaaaaaaa", "123412341234") is the common way to game it.
export function ratePasswordStrength(password: string): PasswordStrength {
  if (password.length < minPasswordLength) {
    const missing = minPasswordLength - password.length;
    return {
      score: 0,
      label: "Too short",
      hint: `${missing} more character${missing === 1 ? "" : "s"} needed (at least ${minPasswordLength}).`,
    };
  }
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(password)).length;
  const distinct = new Set(password).size;
  let points = 1;
  if (classes >= 3) points += 1;
  if (password.length >= 16) points += 1;
  if (password.length >= 20 || (classes === 4 && password.length >= 14)) points += 1;
  if (distinct < password.length / 3) points -= 2;
  const score = Math.min(4, Math.max(1, points)) as 1 | 2 | 3 | 4;
  return ratings[score];
}

const ratings: Record<1 | 2 | 3 | 4, PasswordStrength> = {
  1: { score: 1, label: "Weak", hint: "Long enough, but easy to guess. Add length or mix in other characters." },
  2: { score: 2, label: "Fair", hint: "A few more characters would make it much harder to guess." },
  3: { score: 3, label: "Good", hint: "Hard to guess." },
  4: { score: 4, label: "Strong", hint: "Very hard to guess." },
};
