/** Both validators against one table of cases (longer than 150 lines: one suite, run twice, one validator each). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { regexes } from "zod/v4/core";
import { EMAIL_PATTERN, type SignupInput, type Validation } from "../../src/lib/waitlist/rules";
import { loadValidator } from "../../src/lib/waitlist/schema";
import { validateInBrowser } from "../../src/lib/waitlist/validate";

const zodValidate = await loadValidator();

// The same suite runs against both validators: the server's zod schema and the island's dependency-free twin.
const VALIDATORS: Array<[string, (input: SignupInput) => Validation]> = [
  ["zod schema (function)", zodValidate],
  ["browser validator (island)", validateInBrowser],
];

for (const [validatorName, validateSignup] of VALIDATORS) {
  describe(validatorName, () => {
    const valid = { email: "ada@example.com", termsAccepted: true };
    // The words both validators give; the field a failure names is the island's alone (it marks that control),
    // checked below.
    const errorOf = (input: Record<string, unknown>) => {
      const result = validateSignup(input);
      if (result.ok) return null;
      const { field: _field, ...words } = result;
      return words;
    };

    describe("validateSignup: the order of checks", () => {
      it("reports an empty email before unchecked terms", () => {
        expect(errorOf({ email: "", termsAccepted: false })).toEqual({
          ok: false,
          title: "Email required",
          message: "Please provide your email address.",
        });
      });

      it("treats a missing or whitespace-only email as empty", () => {
        expect(errorOf({ termsAccepted: true })?.title).toBe("Email required");
        expect(errorOf({ email: "   \t", termsAccepted: true })?.title).toBe("Email required");
      });

      it("reports unchecked terms before any schema message", () => {
        expect(errorOf({ email: "not-an-email", name: "x".repeat(500), termsAccepted: false })).toEqual({
          ok: false,
          title: "Terms of Service",
          message: "Please accept the Terms of Service to continue.",
        });
      });

      it("accepts terms only when exactly true", () => {
        for (const termsAccepted of ["true", 1, "on", null, undefined]) {
          expect(errorOf({ ...valid, termsAccepted })?.title).toBe("Terms of Service");
        }
      });

      it("reports the first failing field in form order", () => {
        const all = { email: "bad", name: "n".repeat(101), organization: "o".repeat(201), termsAccepted: true };
        expect(errorOf(all)).toEqual({
          ok: false,
          title: "Validation error",
          message: "Name must be less than 100 characters",
        });
        expect(errorOf({ ...all, name: "Ada" })?.message).toBe("Invalid email address");
        expect(errorOf({ ...all, name: "Ada", email: "ada@example.com" })?.message).toBe(
          "Organization must be less than 200 characters",
        );
      });
    });

    describe("validateSignup: limits are inclusive and apply to trimmed values", () => {
      const cases = [
        ["name", 100, "Name must be less than 100 characters"],
        ["organization", 200, "Organization must be less than 200 characters"],
        ["why", 1000, "Response must be less than 1000 characters"],
        ["connect", 1000, "Response must be less than 1000 characters"],
      ] as const;

      for (const [field, limit, message] of cases) {
        it(`${field}: ${limit} characters pass, ${limit + 1} fail with "${message}"`, () => {
          expect(validateSignup({ ...valid, [field]: "a".repeat(limit) }).ok).toBe(true);
          expect(validateSignup({ ...valid, [field]: `  ${"a".repeat(limit)}  ` }).ok).toBe(true);
          expect(errorOf({ ...valid, [field]: "a".repeat(limit + 1) })).toEqual({
            ok: false,
            title: "Validation error",
            message,
          });
        });
      }

      it("email: 255 characters pass, 256 fail with the length message", () => {
        const at = (length: number) => `${"a".repeat(length - "@example.com".length)}@example.com`;
        expect(at(255)).toHaveLength(255);
        expect(validateSignup({ ...valid, email: at(255) }).ok).toBe(true);
        expect(errorOf({ ...valid, email: at(256) })?.message).toBe("Email must be less than 255 characters");
      });

      it("rejects invalid addresses with 'Invalid email address'", () => {
        for (const email of ["plain", "a@b", "@example.com", "a@@example.com", "a b@example.com", "ada@example."]) {
          expect(errorOf({ ...valid, email })?.message, email).toBe("Invalid email address");
        }
      });

      it("counts characters, not UTF-16 units: 100 emoji pass in a name, 101 fail", () => {
        expect(validateSignup({ ...valid, name: "🧠".repeat(100) })).toEqual({
          ok: true,
          value: { email: "ada@example.com", name: "🧠".repeat(100) },
        });
        expect(errorOf({ ...valid, name: "🧠".repeat(101) })?.message).toBe("Name must be less than 100 characters");
        expect(errorOf({ ...valid, why: "🧠".repeat(1001) })?.message).toBe(
          "Response must be less than 1000 characters",
        );
      });

      it("refuses U+2028 and U+2029 in one-line fields, and allows them in the long answers", () => {
        expect(errorOf({ ...valid, name: "Ada\u2028Connect: x" })?.message).toBe("Name must be a single line.");
        expect(errorOf({ ...valid, organization: "A\u2029B" })?.message).toBe("Organization must be a single line.");
        expect(validateSignup({ ...valid, why: "a\u2028b" }).ok).toBe(true);
      });

      it("returns trimmed values", () => {
        const result = validateSignup({ ...valid, email: "  ada@example.com\n", name: "  Ada ", why: " because " });
        expect(result).toEqual({
          ok: true,
          value: { email: "ada@example.com", name: "Ada", why: "because" },
        });
      });
    });
  });
}

describe("the two validators", () => {
  it("use zod's own e-mail pattern", () => {
    const samples = fc.oneof(
      fc.emailAddress(),
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[a-z.+_-]{1,8}@[a-z.-]{1,8}$/),
    );
    fc.assert(
      fc.property(samples, (sample) => {
        expect(EMAIL_PATTERN.test(sample)).toBe(regexes.email.test(sample));
      }),
      { numRuns: 5000 },
    );
  });

  it("give the same verdict and the same values on 5,000 generated inputs", () => {
    // Whitespace around otherwise valid values, so a side that stops trimming gives other values (or verdicts).
    const space = fc.constantFrom("", " ", "  ", "\t", "\n", " \r\n ");
    const padded = (inner: fc.Arbitrary<string>) => fc.tuple(space, inner, space).map(([a, b, c]) => `${a}${b}${c}`);
    const field = fc.oneof(
      padded(fc.string({ minLength: 1, maxLength: 20 })),
      padded(fc.constantFrom("x".repeat(99), "x".repeat(100), "x".repeat(199), "x".repeat(200), "x".repeat(1000))),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: fc.constantFrom("a", " ", "\u0000", "\ud800", "🧠", "@", "."), maxLength: 8 }),
      fc.constant("x".repeat(101)),
      fc.constant("x".repeat(1001)),
      fc.constant("🧠".repeat(51)),
      fc.constant("🧠".repeat(101)),
      fc.constant("a\u2028b"),
      fc.integer(),
      fc.constant(null),
    );
    const email = fc.oneof(
      fc.emailAddress(),
      padded(fc.emailAddress()),
      fc.string({ maxLength: 12 }),
      fc.constant(` ${"a".repeat(250)}@example.com `),
      field,
    );
    const input = fc.record(
      {
        name: field,
        email,
        organization: field,
        why: field,
        connect: field,
        termsAccepted: fc.oneof(fc.constant(true), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(input, (value) => {
        // The field a failure names is the island's alone (it marks that control); the verdict and words agree.
        const browser = validateInBrowser(value);
        expect(browser).toEqual(zodValidate(value));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("browser validator (island): the field a failure names", () => {
  const fieldOf = (input: SignupInput) => {
    const result = validateInBrowser(input);
    return result.ok ? null : result.field;
  };
  it("names the control to mark, in the order of checks", () => {
    expect(fieldOf({ email: "", termsAccepted: false })).toBe("email");
    expect(fieldOf({ email: "ada@example.com", termsAccepted: false })).toBe("termsAccepted");
    expect(fieldOf({ email: "nope", termsAccepted: true })).toBe("email");
    expect(fieldOf({ email: "ada@example.com", termsAccepted: true, name: "n".repeat(101) })).toBe("name");
    expect(fieldOf({ email: "ada@example.com", termsAccepted: true, why: "w".repeat(1001) })).toBe("why");
    expect(fieldOf({ email: "ada@example.com", termsAccepted: true })).toBeNull();
  });
});
