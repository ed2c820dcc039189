// @vitest-environment happy-dom
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markdownishText } from "../bench/markdown/markdownish-text.js";
import { MarkdownText } from "./markdown-text.js";
import { parseInline } from "./parse-inline.js";
import { parseMarkdown } from "./parse-markdown.js";
import { safeHref } from "./safe-href.js";
import { mount, waitUntil, type Mounted } from "./test-fixtures/mount.js";

let mounted: Mounted;
beforeEach(() => {
  mounted = mount();
});
afterEach(() => mounted.cleanup());

const render = (text: string) => {
  mounted.render(<MarkdownText text={text} />);
  return mounted.container.firstElementChild as HTMLElement;
};

describe("safeHref", () => {
  it.each(["https://example.com/a?b=1", "http://x.test", "mailto:a@b.test", "/cart", "#top", "page.html", "../up"])("allows %s", (href) => {
    expect(safeHref(href)).toBe(href);
  });
  it.each(["javascript:alert(1)", "JavaScript:alert(1)", "java\tscript:alert(1)", " javascript:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "file:///etc/passwd", ""])(
    "refuses %j",
    (href) => {
      expect(safeHref(href)).toBeUndefined();
    },
  );
});

describe("parseMarkdown", () => {
  it("splits paragraphs, headings, lists, quotes and fenced code", () => {
    const blocks = parseMarkdown("# Cart\nTwo items:\n\n- socks\n- hat\n  (red)\n\n3. three\n4. four\n\n> quoted\n\n```js\nconst a = 1;\n```\nafter");
    expect(blocks.map((block) => block.type)).toEqual(["heading", "paragraph", "list", "list", "quote", "code", "paragraph"]);
    expect(blocks[2]).toMatchObject({ ordered: false, items: [[[{ text: "socks" }]], [[{ text: "hat" }], [{ text: "(red)" }]]] });
    expect(blocks[3]).toMatchObject({ ordered: true, start: 3 });
    expect(blocks[5]).toEqual({ type: "code", language: "js", text: "const a = 1;" });
  });

  it("treats an unclosed fence (still streaming) as code to the end", () => {
    expect(parseMarkdown("Here:\n```\nline 1\nline 2")).toEqual([
      { type: "paragraph", lines: [[{ type: "text", text: "Here:" }]] },
      { type: "code", language: "", text: "line 1\nline 2" },
    ]);
  });

  it("parses inline code, bold, italic, links and bare URLs", () => {
    expect(parseInline("Use `get_cart`, **now** or _later_, see [docs](https://x.test/d) or https://y.test/p.")).toEqual([
      { type: "text", text: "Use " },
      { type: "code", text: "get_cart" },
      { type: "text", text: ", " },
      { type: "strong", content: [{ type: "text", text: "now" }] },
      { type: "text", text: " or " },
      { type: "em", content: [{ type: "text", text: "later" }] },
      { type: "text", text: ", see " },
      { type: "link", href: "https://x.test/d", content: [{ type: "text", text: "docs" }] },
      { type: "text", text: " or " },
      { type: "link", href: "https://y.test/p", content: [{ type: "text", text: "https://y.test/p" }] },
      { type: "text", text: "." },
    ]);
    expect(parseInline("snake_case_name and 2*3*4")).toEqual([{ type: "text", text: "snake_case_name and 2*3*4" }]);
  });
});

describe("MarkdownText", () => {
  it("renders lists, code and links as elements, links in a new tab without referrer", () => {
    const root = render("Items:\n\n1. **socks**\n2. `hat`\n\nSee [the cart](/cart).");
    expect(root.querySelectorAll("ol li")).toHaveLength(2);
    expect(root.querySelector("strong")?.textContent).toBe("socks");
    expect(root.querySelector("code")?.textContent).toBe("hat");
    const link = root.querySelector("a")!;
    expect(link.getAttribute("href")).toBe("/cart");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  it("never renders HTML from the model: a <script> and an onerror image stay text", () => {
    const root = render('Hi <script>window.hacked = 1</script> <img src=x onerror="window.hacked = 2"> <b>bold?</b>');
    expect(root.querySelector("script, img, b")).toBeNull();
    expect(root.textContent).toContain("<script>window.hacked = 1</script>");
    expect(root.textContent).toContain("<b>bold?</b>");
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });

  it("renders javascript: and data: links as inert text", () => {
    const root = render("[click me](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=) and [x](JAVASCRIPT:void(0))");
    expect(root.querySelector("a")).toBeNull();
    expect(root.textContent).toContain("[click me](javascript:alert(1))");
  });

  it("renders a fenced block with HTML inside as code text", () => {
    const root = render("```html\n<iframe src=evil></iframe>\n```");
    expect(root.querySelector("iframe")).toBeNull();
    expect(root.querySelector("pre code")?.textContent).toBe("<iframe src=evil></iframe>");
  });
});

describe("MarkdownText on any input", () => {
  const TAGS = new Set(["DIV", "P", "SPAN", "BR", "STRONG", "EM", "CODE", "PRE", "UL", "OL", "LI", "BLOCKQUOTE", "A"]);
  const ATTRIBUTES = new Set(["class", "href", "target", "rel", "start", "data-language"]);

  it("renders only its own elements and attributes, and streamed text as the whole text (property)", () => {
    const streamed = mount();
    try {
      fc.assert(
        fc.property(markdownishText({ maxLength: 600 }), fc.array(fc.nat({ max: 600 }), { maxLength: 8 }), (text, cuts) => {
          const root = render(text);
          for (const element of root.querySelectorAll("*")) {
            expect(TAGS.has(element.tagName), element.tagName).toBe(true);
            for (const attribute of element.getAttributeNames()) expect(ATTRIBUTES.has(attribute), attribute).toBe(true);
          }
          for (const cut of [...cuts].sort((a, b) => a - b)) streamed.render(<MarkdownText text={text.slice(0, cut)} />);
          streamed.render(<MarkdownText text={text} />);
          expect(streamed.container.innerHTML).toBe(mounted.container.innerHTML);
          streamed.render(null);
        }),
        { numRuns: 300 },
      );
    } finally {
      streamed.cleanup();
    }
  });

  it("renders a long line as pieces, with no line break of its own around it", async () => {
    const line = Array.from({ length: 1_000 }, (_, index) => `\`c${index}\``).join(" ");
    const root = render(`short\n${line}\nshort`);
    // How much shows in the first frame depends on the device's speed (the reveal is sized by time): wait for all of it.
    await waitUntil(() => root.getAttribute("aria-busy") === null, "the whole text shows");
    expect(root.querySelectorAll("code")).toHaveLength(1_000);
    const long = root.querySelector("p > span.long-line")!;
    expect(long.textContent).toBe(line.replaceAll("`", ""));
    expect(long.querySelectorAll(":scope > span.line-piece").length).toBeGreaterThan(2);
    expect(root.querySelectorAll("br")).toHaveLength(0);
    expect(render("one\ntwo").querySelectorAll("br")).toHaveLength(1);
  });

  it("shows a text far ahead of it a step per frame, busy until all of it shows", async () => {
    const text = Array.from({ length: 3_000 }, (_, index) => `Line ${index} of the reply.`).join("\n\n");
    const root = render(text);
    expect(root.getAttribute("aria-busy")).toBe("true");
    expect(root.querySelectorAll("p").length).toBeLessThan(1_000);
    await waitUntil(() => root.getAttribute("aria-busy") === null, "the whole text shows");
    expect(root.querySelectorAll("p")).toHaveLength(3_000);
    expect(root.lastElementChild?.textContent).toBe("Line 2999 of the reply.");
  });
});
