package org.salgate.bench.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ResourceSamplerTest {

    @BeforeAll
    static void linuxProcIsThere() {
        assertTrue(ProcStat.supported(), "the sampler reads Linux's /proc, which this machine lacks");
    }

    private static List<ResourceSample> sampleUntil(ResourceSampler s, java.util.function.Predicate<List<ResourceSample>> done)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<ResourceSample> got = s.samples();
            if (done.test(got)) {
                return got;
            }
            Thread.sleep(50);
        }
        return s.samples();
    }

    @Test
    void busyThreadInOwnJvmShowsCpuAndMemory() throws Exception {
        AtomicBoolean spin = new AtomicBoolean(true);
        Thread busy = new Thread(() -> {
            long x = 0;
            while (spin.get()) {
                x += System.nanoTime() % 7;
            }
            if (x == 42) {
                System.out.print("");
            }
        });
        busy.setDaemon(true);
        busy.start();
        try (ResourceSampler s = new ResourceSampler(ProcessHandle.current().pid(), 100)) {
            s.start();
            List<ResourceSample> got = sampleUntil(s, l -> l.stream().anyMatch(x -> x.cpuPercent() > 0));
            assertTrue(got.stream().anyMatch(x -> x.cpuPercent() > 0), "a spinning thread uses CPU: " + got);
            assertTrue(got.stream().allMatch(x -> x.rssBytes() > 1024 * 1024), "a JVM holds more than 1 MB");
            assertTrue(got.stream().allMatch(x -> x.cpuPercent() >= 0));
            assertTrue(got.stream().allMatch(x -> x.threads() > 2), "a JVM with a spinning and a sampling thread: " + got);
        } finally {
            spin.set(false);
        }
    }

    @Test
    void sleepingChildIsSampledFromOutside() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "30").start();
        try (ResourceSampler s = new ResourceSampler(sleep.pid(), 100)) {
            s.start();
            List<ResourceSample> got = sampleUntil(s, l -> l.size() >= 3);
            assertTrue(got.size() >= 3);
            assertTrue(ResourceSampler.meanRss(got) > 0);
            // sleep(1) is far smaller than a JVM: the numbers are the child's, not ours
            assertTrue(ResourceSampler.maxRss(got) < 64L * 1024 * 1024, "rss " + ResourceSampler.maxRss(got));
            assertTrue(ResourceSampler.meanCpu(got) < 50, "sleep barely uses CPU");
        } finally {
            sleep.destroy();
        }
    }

    @Test
    void goneProcessFailsToStart() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long pid = p.pid();
        assertThrows(IOException.class, () -> new ProcStat(pid).read());
    }

    @Test
    void emptySamplesHaveNoMean() {
        assertTrue(Double.isNaN(ResourceSampler.meanCpu(List.of())));
        assertEquals(0, ResourceSampler.maxRss(List.of()));
    }
}
