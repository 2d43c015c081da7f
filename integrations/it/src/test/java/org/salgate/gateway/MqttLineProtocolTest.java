package org.salgate.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.salgate.mqtt.MqttBridgeConfig;
import org.salgate.mqtt.StreamSpec;
import org.salgate.mqtt.Topics;

/** {@code --mqtt-format influx}: each reading one line of InfluxDB line protocol on its topic, through a real Mosquitto. */
@Tag("mqtt")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MqttLineProtocolTest extends BridgeFixture {

    private static final Pattern LINE = Pattern.compile(
            "salgate,agent=it-lp,sensor=DUMMY_1,command=read,unit=1 value=42\\.0,sequence=(\\d+)i,status=\"OK\" (\\d{19})");

    @Test
    void readingsArePublishedAsLineProtocolWithNanosecondTimestamps() throws Exception {
        Mosquitto broker = closing(Mosquitto.start(dir));
        Topics topics = new Topics("salgate", "it-lp");
        Subscriber sub = closing(Subscriber.subscribe(broker.url(), "watcher-lp", topics.all()));
        long before = System.currentTimeMillis() * 1_000_000L;
        agent("it-lp", config(broker).payloadFormat(MqttBridgeConfig.PayloadFormat.INFLUX)
                .stream(StreamSpec.parse("DUMMY_1@50ms")).build(), new AtomicReference<>());

        String topic = topics.reading("DUMMY_1", "read");
        sub.await(r -> r.topic().equals(topic) && r.payload().contains("sequence=9i"), WAIT, "10 readings");
        List<Subscriber.Received> lines = sub.on(topic);
        long previous = before;
        for (int i = 0; i < 10; i++) {
            Matcher m = LINE.matcher(lines.get(i).payload());
            assertTrue(m.matches(), "not the expected line: " + lines.get(i).payload());
            assertEquals(i, Long.parseLong(m.group(1)), "readings in order, once each");
            long nanos = Long.parseLong(m.group(2));
            assertTrue(nanos > previous && nanos < System.currentTimeMillis() * 1_000_000L,
                    "timestamp " + nanos + " in nanoseconds, after the one before");
            previous = nanos;
        }
    }
}
