package org.salgate.transport.http.it.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.transport.http.HttpTransportProvider;

/**
 * The agent's live page in headless Chromium (Debian's chromium and chromium-driver, driven by
 * Selenium through /usr/bin/chromedriver): it lists the default sensors, shows a description,
 * reads a value and charts a live stream. Runs with {@code -P browser}; saves a screenshot.
 */
@Timeout(120)
class LivePageBrowserTest {

    private Agent agent;
    private ChromeDriver browser;
    private Path profile;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.builder().transport(HttpTransportProvider.NAME).host("127.0.0.1").port(0).agentId("browser-it").start();
        profile = Files.createTempDirectory("salgate-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                "--user-data-dir=" + profile);
        browser = new ChromeDriver(options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (agent != null) {
            agent.close();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    @Test
    void pageListsSensorsShowsADescriptionReadsAValueAndChartsALiveStream() throws Exception {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        browser.get("http://127.0.0.1:" + agent.port() + "/");
        assertEquals("salgate agent", browser.getTitle());

        wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
        assertEquals("(28)", text("sensor-count"));

        WebElement dummy = browser.findElement(By.cssSelector("#sensors tbody tr[data-id='DUMMY_0']"));
        dummy.click();
        wait.until(d -> !text("sensor-description").isEmpty());
        assertTrue(text("sensor-description").startsWith("Dummy sensor 0"), text("sensor-description"));
        wait.until(d -> !d.findElement(By.id("commands")).getAttribute("textContent").isEmpty());
        assertTrue(browser.findElement(By.id("commands")).getAttribute("textContent").contains("id=\"read\""));

        browser.findElement(By.id("read-button")).click();
        wait.until(d -> text("reading").equals("42"));

        // The page follows the agent's events (subscribed once the event stream is open).
        wait.until(d -> "open".equals(d.findElement(By.tagName("body")).getAttribute("data-events")));
        browser.findElement(By.id("interval")).clear();
        browser.findElement(By.id("interval")).sendKeys("50");
        browser.findElement(By.id("stream-start")).click();
        wait.until(d -> Long.parseLong(text("stream-count")) >= 20);
        assertEquals("0", text("stream-gaps"), "the stream skipped sequence numbers");
        assertTrue(Double.parseDouble(text("stream-rate")) > 0, "no reading rate shown");
        assertFalse(browser.findElement(By.id("stream-start")).isEnabled(), "start stays enabled while streaming");
        wait.until(d -> dummy.findElements(By.tagName("td")).get(2).getText().equals("STREAMING"));

        Path screenshot = Path.of(System.getProperty("salgate.screenshot", "target/browser/page.png"));
        Files.createDirectories(screenshot.getParent());
        Files.write(screenshot, browser.getScreenshotAs(OutputType.BYTES));

        browser.findElement(By.id("stream-stop")).click();
        wait.until(d -> agent.streamCount() == 0);
        wait.until(d -> dummy.findElements(By.tagName("td")).get(2).getText().equals("IDLE"));
    }

    @Test
    void pageJoinsTheSharedStreamAJavaClientStartedFromWhereItIs() throws Exception {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        try (SalClient java = SalClient.builder().transport(HttpTransportProvider.NAME).port(agent.port())
                .clientName("browser-it-java").connect()) {
            AtomicLong javaReadings = new AtomicLong();
            java.stream("DUMMY_1", "read", null, 50, null, true, r -> javaReadings.incrementAndGet())
                    .get(20, TimeUnit.SECONDS);
            wait.until(d -> javaReadings.get() >= 10);

            browser.get("http://127.0.0.1:" + agent.port() + "/");
            wait.until(d -> d.findElements(By.cssSelector("#sensors tbody tr")).size() == 28);
            browser.findElement(By.cssSelector("#sensors tbody tr[data-id='DUMMY_1']")).click();
            wait.until(d -> !text("sensor-description").isEmpty());
            browser.findElement(By.id("interval")).clear();
            browser.findElement(By.id("interval")).sendKeys("50");
            browser.findElement(By.id("shared")).click();
            browser.findElement(By.id("stream-start")).click();
            wait.until(d -> Long.parseLong(text("stream-count")) >= 10);
            assertEquals("0", text("stream-gaps"), "joining late is no gap, and none followed");
            assertEquals(1, agent.sharedStreamCount(), "the page joined the Java client's shared stream");
            assertEquals(2, agent.streamCount());

            browser.findElement(By.id("stream-stop")).click();
            wait.until(d -> agent.streamCount() == 1);
            assertEquals(1, agent.sharedStreamCount(), "the Java client's subscription goes on");
        }
    }
}
