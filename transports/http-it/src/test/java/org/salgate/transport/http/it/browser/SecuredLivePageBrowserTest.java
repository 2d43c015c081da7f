package org.salgate.transport.http.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live page of a secured agent, the page part of the README's "serve another machine securely"
 * recipe: the agent jar run with {@code --transport http --host 0.0.0.0}, a PEM certificate for
 * 127.0.0.1 and a tokens file, and Chromium at https://127.0.0.1:PORT/ trusting exactly that
 * certificate's key ({@code --ignore-certificate-errors-spki-list}, a pin, not a trust-all switch).
 * Runs with {@code -P browser}; saves screenshots in {@code salgate.screenshot.dir}.
 */
@Timeout(180)
class SecuredLivePageBrowserTest {

    private static SecuredAgentProgram agent;
    private ChromeDriver browser;
    private WebDriverWait wait;
    private Path profile;

    @BeforeAll
    static void startAgent() throws Exception {
        agent = SecuredAgentProgram.start();
    }

    @AfterAll
    static void stopAgent() throws Exception {
        if (agent != null) {
            agent.close();
        }
    }

    @BeforeEach
    void startBrowser() throws Exception {
        profile = Files.createTempDirectory("salgate-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,800", "--user-data-dir=" + profile,
                "--ignore-certificate-errors-spki-list=" + agent.spkiSha256());
        browser = new ChromeDriver(options);
        // The page's viewport itself 1280x800, whatever the headless window's frame takes.
        browser.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", 1280, "height", 800, "deviceScaleFactor", 1, "mobile", false));
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    }

    @AfterEach
    void stopBrowser() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private WebElement element(String id) {
        return browser.findElement(By.id(id));
    }

    private String text(String id) {
        return element(id).getText();
    }

    private void signIn(String token) {
        wait.until(d -> element("token").isDisplayed());
        element("token").clear();
        element("token").sendKeys(token);
        element("signin-button").click();
    }

    private List<WebElement> adminActions() {
        return browser.findElements(By.cssSelector(".admin"));
    }

    private void screenshot(String name) throws Exception {
        Path dir = Path.of(System.getProperty("salgate.screenshot.dir", "target/browser"));
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), browser.getScreenshotAs(OutputType.BYTES));
    }

    /** The token is in the tab's sessionStorage only: never in the URL, no cookie, nothing in localStorage. */
    private void assertTokenKeptInTheTabOnly(String token) {
        assertFalse(browser.getCurrentUrl().contains(token), "the token is in the URL: " + browser.getCurrentUrl());
        assertTrue(browser.manage().getCookies().isEmpty(), "cookies were set: " + browser.manage().getCookies());
        assertEquals(token, browser.executeScript("return sessionStorage.getItem('salgate.token')"));
        assertEquals(0L, browser.executeScript("return localStorage.length"));
    }

    @Test
    void pageAsksForATokenAndShowsWhatTheTokensRoleMayDo() throws Exception {
        browser.get(agent.url());
        wait.until(d -> element("token").isDisplayed());
        assertTrue(browser.findElements(By.cssSelector("#sensors tbody tr")).isEmpty(), "sensors shown before sign-in");

        signIn(SecuredAgentProgram.READER);
        wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
        wait.until(d -> text("who").contains("reader"));
        assertFalse(element("token").isDisplayed(), "the prompt stays after sign-in");
        browser.findElement(By.cssSelector("#sensors tbody tr[data-id='DUMMY_0']")).click();
        wait.until(d -> !d.findElement(By.id("commands")).getAttribute("textContent").isEmpty());
        element("read-button").click();
        wait.until(d -> text("reading").equals("42"));
        assertFalse(adminActions().isEmpty(), "the page has no admin actions to hide");
        for (WebElement action : adminActions()) {
            assertFalse(action.isDisplayed(), "a reader is shown an admin action: " + action.getAttribute("id"));
        }
        assertTokenKeptInTheTabOnly(SecuredAgentProgram.READER);
        screenshot("secured-reader.png");

        element("signout").click();
        wait.until(d -> element("token").isDisplayed());
        assertTrue(browser.findElements(By.cssSelector("#sensors tbody tr")).isEmpty(), "sensors shown after sign-out");
        signIn("not-a-token-of-this-agent-0123");
        wait.until(d -> !text("signin-message").isEmpty());
        assertTrue(text("signin-message").contains("refused"), text("signin-message"));
        assertTrue(element("token").isDisplayed(), "a refused token leaves the prompt");
        assertEquals(null, browser.executeScript("return sessionStorage.getItem('salgate.token')"),
                "a refused token is kept");
        screenshot("secured-refused.png");

        signIn(SecuredAgentProgram.ADMIN);
        wait.until(d -> text("who").contains("admin"));
        wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
        assertTrue(text("signin-message").isEmpty(), "the refusal stays after a good token");
        browser.findElement(By.cssSelector("#sensors tbody tr[data-id='DUMMY_1']")).click();
        wait.until(d -> element("remove-sensor").isDisplayed());
        assertTrue(element("config-panel").isDisplayed(), "an admin is not shown the platform configuration");
        assertTokenKeptInTheTabOnly(SecuredAgentProgram.ADMIN);

        browser.navigate().refresh();
        wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
        assertTrue(text("who").contains("admin"), "a reload signs the tab out: " + text("who"));
        assertFalse(element("token").isDisplayed(), "a reload asks for the token again");
        assertTokenKeptInTheTabOnly(SecuredAgentProgram.ADMIN);
    }

    @Test
    void openSensorShowsItsDescriptionReadablyItsReadingsUnitAndAChartWithATimeAxis() throws Exception {
        browser.get(agent.url());
        signIn(SecuredAgentProgram.READER);
        wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
        double viewport = ((Number) browser.executeScript("return window.innerWidth")).doubleValue();
        assertEquals(1280, viewport);
        WebElement listed = browser.findElement(By.cssSelector("#sensors tr[data-id='CPU_USER'] td.description"));
        assertTrue(listed.getRect().getWidth() >= 0.4 * viewport, "with no sensor open, the table's descriptions are "
                + listed.getRect().getWidth() + " px wide");
        browser.findElement(By.cssSelector("#sensors tbody tr[data-id='CPU_USER']")).click();
        wait.until(d -> !d.findElement(By.id("commands")).getAttribute("textContent").isEmpty());
        element("read-button").click();
        wait.until(d -> !text("reading").isEmpty() && !text("reading").equals("…"));
        assertTrue(text("reading").matches("[0-9.]+"), "not a CPU percentage: " + text("reading"));
        assertEquals("%", text("reading-unit"), "the reading's unit is not shown next to it");

        element("interval").clear();
        element("interval").sendKeys("300");
        element("stream-start").click();
        wait.until(d -> Long.parseLong(text("stream-count")) >= 4);
        // The chart is drawn anew four times a second: its texts are read at one go.
        List<?> ticks = (List<?>) browser.executeScript(
                "return Array.from(document.querySelectorAll('#chart .x-axis text.tick'), t => t.textContent)");
        assertTrue(ticks.size() >= 2, "the chart's time axis has " + ticks.size() + " tick labels");
        for (Object tick : ticks) {
            assertTrue(String.valueOf(tick).matches("\\d\\d:\\d\\d:\\d\\d"), "a time tick reads '" + tick + "'");
        }
        assertEquals(List.of("time", "%"), browser.executeScript(
                "return Array.from(document.querySelectorAll('#chart text.title'), t => t.textContent)"),
                "the axes' titles: time, and the readings' unit");
        assertTrue(((Number) browser.executeScript("return document.querySelectorAll('#chart .y-axis text.tick').length"))
                .intValue() >= 2, "the value axis has no tick labels");
        screenshot("secured-sensor-1280x800.png");

        double description = element("sensor-description").getRect().getWidth();
        assertTrue(description >= 0.55 * viewport, "the open sensor's description is " + description
                + " px wide in a " + viewport + " px window");
        for (WebElement cell : browser.findElements(By.cssSelector("#sensors td.description"))) {
            assertTrue(!cell.isDisplayed() || cell.getRect().getWidth() >= 0.4 * viewport,
                    "a description in the table is squeezed to " + cell.getRect().getWidth() + " px");
        }
        element("stream-stop").click();
    }
}
