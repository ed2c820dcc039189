// The default theme, with the few colour and layout fixes in custom.css that
// keep the site free of serious axe-core findings (examples/docs-site.browser.test.ts).
import DefaultTheme from "vitepress/theme";
import "./custom.css";

export default DefaultTheme;
