// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MarkdownText } from "./markdown-text.js";
import { parseInline, parseMarkdown, safeHref } from "./parse-markdown.js";
import { mount, type Mounted } from "./test-fixtures/mount.js";

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
