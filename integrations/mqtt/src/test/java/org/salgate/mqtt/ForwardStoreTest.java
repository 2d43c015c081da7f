package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForwardStoreTest {

    @TempDir
    Path dir;

    /** A clock the test moves. */
    private static final class ManualClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> drain(ForwardStore s) {
        List<String> out = new ArrayList<>();
        for (ForwardStore.Entry e = s.next(s.firstKey()); e != null; e = s.next(s.firstKey())) {
            out.add(e.topic() + "=" + new String(e.payload(), StandardCharsets.UTF_8));
            s.remove(e.key());
        }
        return out;
    }

    @Test
    void messagesComeOutInOrderAndSurviveAReopen() throws Exception {
        Path file = dir.resolve("q.mv.db");
        try (ForwardStore s = ForwardStore.open(file, 100, Duration.ofHours(1), Clock.systemUTC())) {
            s.append("a", b("{\"n\":1}"));
            s.append("b", b("{\"n\":2}"));
        }
        try (ForwardStore s = ForwardStore.open(file, 100, Duration.ofHours(1), Clock.systemUTC())) {
            assertEquals(2, s.size());
            s.append("c", b("{\"n\":3}"));
            assertEquals(List.of("a={\"n\":1}", "b={\"n\":2}", "c={\"n\":3}"), drain(s));
            assertEquals(0, s.size());
        }
    }

    @Test
    void aFullStoreDropsTheOldestAndCountsThem() throws Exception {
        try (ForwardStore s = ForwardStore.open(dir.resolve("q.mv.db"), 3, Duration.ofHours(1), Clock.systemUTC())) {
            for (int i = 0; i < 5; i++) {
                s.append("t", b(Integer.toString(i)));
            }
            assertEquals(2, s.dropped());
            assertEquals(List.of("t=2", "t=3", "t=4"), drain(s));
        }
    }

    @Test
    void messagesOlderThanTheAgeLimitAreDroppedAndCounted() throws Exception {
        ManualClock clock = new ManualClock();
        try (ForwardStore s = ForwardStore.open(dir.resolve("q.mv.db"), 10, Duration.ofSeconds(30), clock)) {
            s.append("t", b("old"));
            clock.now = clock.now.plusSeconds(20);
            s.append("t", b("newer"));
            clock.now = clock.now.plusSeconds(15);
            assertEquals(List.of("t=newer"), drain(s));
            assertEquals(1, s.expired());
            assertNull(s.next(s.firstKey()));
        }
    }
}
