/**
 * The e-mails' one family of templates, in React Email's components (the layout, and the blocks a message is made
 * of: paragraphs, the main action's button, links, fine print, the updates' rule). Rendered here, at development
 * time, into HTML strings with named slots (`{{name}}`), which scripts/render-emails.ts writes to
 * src/server/mail/templates.ts; the server fills the slots (src/server/mail/layout.ts) and never loads React.
 * tests/unit/email-templates.test.ts renders them again and fails when the committed file is stale.
 *
 * The look is the site's: its brand and ink colours, read from src/styles/global.css's @theme (changing one there
 * makes the committed file stale), a system font stack like Inter (web fonts are unreliable in mail), the rounded
 * button of the site. Dark-mode safe: every surface has its own background colour (a client that inverts colours
 * keeps text and its background apart), and clients that honour prefers-color-scheme get dark colours of the same
 * family. No image (a picture fetched from a server on opening tells that server the e-mail was read).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Hr,
  Html,
  Link,
  Row,
  render,
  Section,
  Text,
} from "@react-email/components";
import type { CSSProperties, ReactElement, ReactNode } from "react";
import { SITE } from "../../src/site";
import { CLASS, darkCss, FONT, type Palette, palette, styles } from "./email-theme";

const ROOT = join(import.meta.dirname, "../..");

/** A slot the server fills: `{{name}}`, escaped (or HTML the server made, for `content`). */
const slot = (name: string) => `{{${name}}}`;

/** The whole e-mail: the wordmark, `{{content}}` (the blocks below, put together), the sign-off with the site. */
function Layout({ c }: { c: Palette }) {
  const s = styles(c);
  return (
    <Html lang={SITE.locale}>
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{slot("title")}</title>
        <style>{darkCss(c)}</style>
      </Head>
      <Body
        className={CLASS.page}
        style={{ margin: 0, padding: "24px 12px", backgroundColor: c.page, fontFamily: FONT }}
      >
        <Container style={{ maxWidth: "560px" }}>
          <Section
            className={CLASS.card}
            style={{ backgroundColor: c.card, border: `1px solid ${c.border}`, borderRadius: "20px" }}
          >
            <Row>
              <Column style={{ padding: "28px 28px 12px" }}>
                {/* The wordmark: no logo image (see above), and no words of the text part (data-skip-in-text). */}
                <Text
                  className={CLASS.link}
                  data-skip-in-text="true"
                  style={{
                    fontSize: "20px",
                    lineHeight: "28px",
                    fontWeight: 700,
                    letterSpacing: "-0.01em",
                    color: c.brand,
                    margin: "0 0 24px",
                  }}
                >
                  {SITE.name}
                </Text>
                {slot("content")}
                <Text className={CLASS.text} style={s.paragraph}>
                  {`— ${SITE.name}`}
                  <br />
                  <Link className={CLASS.link} href={slot("site")} style={{ ...s.link, fontWeight: 400 }}>
                    {slot("site")}
                  </Link>
                </Text>
              </Column>
            </Row>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The blocks, each a fragment of HTML with its slots (in this order in the generated file). */
function blocks(c: Palette): Record<string, ReactElement> {
  return { ...mainBlocks(c), ...fineBlocks(c), ...updateBlocks(c) };
}

const text = (style: CSSProperties, className: string, children: ReactNode) => (
  <Text className={className} style={style}>
    {children}
  </Text>
);

/** What a message says: paragraphs, its main action, a link on its own line. */
function mainBlocks(c: Palette) {
  const s = styles(c);
  return {
    /** A paragraph. */
    paragraph: text(s.paragraph, CLASS.text, slot("text")),
    /** The e-mail's main action: its words, then the button (one per e-mail). */
    action: (
      <Section style={{ margin: "0 0 24px" }}>
        {text(s.paragraph, CLASS.text, slot("text"))}
        <Button
          href={slot("href")}
          style={{
            backgroundColor: c.brand,
            color: c.onBrand,
            borderRadius: "9999px",
            padding: "12px 24px",
            fontSize: "16px",
            lineHeight: "24px",
            fontWeight: 600,
            textDecoration: "none",
          }}
        >
          {slot("label")}
        </Button>
      </Section>
    ),
    /** A paragraph and a link on its own line. */
    linked: text(
      s.paragraph,
      CLASS.text,
      <>
        {slot("text")}
        <br />
        <Link className={CLASS.link} href={slot("href")} style={s.link}>
          {slot("label")}
        </Link>
      </>,
    ),
  };
}

/** Fine print, and the small links beneath a message. */
function fineBlocks(c: Palette) {
  const s = styles(c);
  return {
    /** Fine print: small and muted. */
    note: text(s.small, CLASS.muted, slot("text")),
    /** Fine print with its link, as quiet as the words. */
    noteLinked: text(
      s.small,
      CLASS.muted,
      <>
        {slot("text")}
        <br />
        <Link className={CLASS.quiet} href={slot("href")} style={s.quiet}>
          {slot("label")}
        </Link>
      </>,
    ),
    /** Small links, one a line (`{{content}}`: smallLink and quietLink blocks, with <br> between). */
    smallLinks: text(s.small, CLASS.muted, slot("content")),
    smallLink: (
      <Link className={CLASS.link} href={slot("href")} style={s.link}>
        {slot("label")}
      </Link>
    ),
    quietLink: (
      <Link className={CLASS.quiet} href={slot("href")} style={s.quiet}>
        {slot("label")}
      </Link>
    ),
  };
}

/** An update's own words, and the rule between them and what the list says of itself. */
function updateBlocks(c: Palette) {
  const s = styles(c);
  return {
    /** An update's paragraph (`{{content}}`: its lines, escaped, with links and <br>), and a link in it. */
    bodyParagraph: text(s.paragraph, CLASS.text, slot("content")),
    bodyLink: (
      <Link className={CLASS.link} href={slot("href")} style={{ ...s.link, fontWeight: 400 }}>
        {slot("label")}
      </Link>
    ),
    /** Between an update's words and what the list says of itself. */
    rule: <Hr className={CLASS.rule} style={{ border: "none", borderTop: `1px solid ${c.rule}`, margin: "24px 0" }} />,
  };
}

/** What React adds for itself (Suspense boundaries, element markers): no client needs it. */
const REACT_MARKERS = /<!--\/?\$-->|<!--(?:html|head|body)-->/g;
const DOCTYPE = /^<!DOCTYPE[^>]*>/;

/** Every template, rendered: `layout` (a whole document) and each block (a fragment). */
export async function renderTemplates(): Promise<Record<string, string>> {
  const c = palette();
  const rendered: Record<string, string> = {
    layout: (await render(<Layout c={c} />)).replace(REACT_MARKERS, ""),
  };
  for (const [name, element] of Object.entries(blocks(c))) {
    rendered[name] = (await render(element)).replace(DOCTYPE, "").replace(REACT_MARKERS, "");
  }
  return rendered;
}

const HEADER = `/**
 * Generated by scripts/render-emails.ts (npm run emails) from scripts/lib/email-templates.tsx, React Email's
 * components rendered to e-mail-safe HTML: do not edit. {{name}} is a slot that src/server/mail/layout.ts fills.
 * tests/unit/email-templates.test.ts fails when this file is stale.
 */
`;

export const TEMPLATES_FILE = join(ROOT, "src/server/mail/templates.ts");

/** src/server/mail/templates.ts, as it should be: formatted as Biome formats it, so `npm run lint` passes. */
export async function templatesModule(): Promise<string> {
  const templates = await renderTemplates();
  const entries = Object.entries(templates).map(([name, html]) => `  ${name}: ${JSON.stringify(html)},`);
  const source = `${HEADER}export const TEMPLATES = {\n${entries.join("\n")}\n} as const;\n\nexport type TemplateName = keyof typeof TEMPLATES;\n`;
  return execFileSync(join(ROOT, "node_modules/.bin/biome"), ["format", `--stdin-file-path=${TEMPLATES_FILE}`], {
    input: source,
    encoding: "utf8",
    cwd: ROOT,
  });
}
