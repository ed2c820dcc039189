import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** The viewports and colour schemes every page and chat state is checked at. */
export const LAYOUT_VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
export const LAYOUT_THEMES = ["light", "dark"] as const;

/** What one look at a page found wrong; empty arrays when nothing. */
export interface LayoutFindings {
  /** The page is wider than the viewport (it scrolls sideways): `"<scrollWidth> > <innerWidth>"`. */
  pageOverflow: string[];
  /** Elements of a chat drawn outside its host's box: `"<chat> <element>: <how far>"`. */
  outsideWidget: string[];
  /** axe-core's violations (shadow roots included): `"<rule>: <targets>"`. */
  axe: string[];
}

/**
 * Checks the page as it is now: no horizontal overflow, nothing of any
 * `[data-web-agents-ui]` chat (those with a `.root`, not the cursor layer)
 * drawn outside the chat's own box, where "drawn" means the part of an
 * element its scrolling or clipping ancestors let show, and no axe-core
 * violation.
 */
export async function checkLayout(page: Page): Promise<LayoutFindings> {
  const { pageOverflow, outsideWidget } = await page.evaluate(() => {
    const pageOverflow: string[] = [];
    const width = document.documentElement.scrollWidth;
    if (width > window.innerWidth) pageOverflow.push(`${width} > ${window.innerWidth}`);
    const outsideWidget: string[] = [];
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    for (const host of document.querySelectorAll("[data-web-agents-ui]")) {
      const root = host.shadowRoot?.querySelector(".root");
      if (!root) continue;
      const box = host.getBoundingClientRect();
      for (const element of root.querySelectorAll("*")) {
        let { left, top, right, bottom } = element.getBoundingClientRect();
        if (right - left < 1 || bottom - top < 1) continue;
        // Clip by every ancestor up to the chat's root that does not let its content overflow.
        for (let ancestor = element.parentElement; ancestor && ancestor !== root; ancestor = ancestor.parentElement) {
          const style = getComputedStyle(ancestor);
          if (style.overflowX === "visible" && style.overflowY === "visible") continue;
          const clip = ancestor.getBoundingClientRect();
          if (style.overflowX !== "visible") [left, right] = [Math.max(left, clip.left), Math.min(right, clip.right)];
          if (style.overflowY !== "visible") [top, bottom] = [Math.max(top, clip.top), Math.min(bottom, clip.bottom)];
        }
        const rootStyle = getComputedStyle(root);
        if (rootStyle.overflowY !== "visible") [top, bottom] = [Math.max(top, box.top), Math.min(bottom, box.bottom)];
        if (rootStyle.overflowX !== "visible") [left, right] = [Math.max(left, box.left), Math.min(right, box.right)];
        if (right - left < 1 || bottom - top < 1) continue;
        const beyond = Math.max(box.left - left, top < box.top ? box.top - top : 0, right - box.right, bottom - box.bottom);
        if (beyond > 1) outsideWidget.push(`${root.getAttribute("aria-label")} ${describe(element)}: ${Math.round(beyond)} px out`);
      }
    }
    return { pageOverflow, outsideWidget };
  });
  // Legacy mode runs axe.run in the page. The default opens a blank page per analysis to merge
  // cross-origin frames' results (this project's pages have no frames): a second or more each.
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const axe = results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => JSON.stringify(node.target)).join(", ")}`,
  );
  return { pageOverflow, outsideWidget, axe };
}
