package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.report.Report;
import org.salgate.mqtt.sparkplug.MetricSpec;
import org.salgate.mqtt.sparkplug.MetricSpec.DataType;
import org.salgate.mqtt.sparkplug.SparkplugMetrics;
import org.salgate.mqtt.sparkplug.SparkplugNode;
import org.salgate.mqtt.sparkplug.SparkplugTopics;
import org.salgate.mqtt.sparkplug.proto.SparkplugB.Payload;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SamplingBounds;

/** The Sparkplug edge node's messages, in the order and with the numbers Sparkplug B 3.0 asks for. */
class SparkplugNodeTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private record Sent(String topic, Payload payload, int qos, boolean retained) {
        long seq() {
            return payload.getSeq();
        }
    }

    /** Records what the node publishes; refuses while {@code refusing}. */
    private static final class Recorder implements MqttConvention.Sender {
        final List<Sent> sent = new ArrayList<>();
        boolean refusing;

        @Override
        public void publish(String topic, byte[] payload, int qos, boolean retained) throws MqttException {
            if (refusing) {
                throw new MqttException(32202);
            }
            try {
                sent.add(new Sent(topic, Payload.parseFrom(payload), qos, retained));
            } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new AssertionError(e);
            }
        }
    }

    private final SparkplugNode node = new SparkplugNode(new SparkplugTopics("plant", "agent-1"), CLOCK);
    private final Recorder out = new Recorder();

    private static byte[] reading(String sensor, String command, Value v) {
        return Payloads.reading(Reading.ok(sensor, 1_700_000_000_123_000L, 1, v).withUnit("Cel"), command);
    }

    private void defineThermometer() {
        node.define("lab/thermo", List.of(new MetricSpec("temperature", DataType.DOUBLE, "Cel", "air temperature"),
                new MetricSpec("count", DataType.INT64, "", "")));
    }

    @Test
    void aConnectionStartsWithNbirthOfTheWillsBdSeqThenDbirthsThenAliasedData() throws Exception {
        defineThermometer();
        MqttConvention.Message will = node.nextWill();
        node.control(out, true);
        node.forward(out, node.dataTopic("lab/thermo"), reading("lab/thermo", "temperature", Value.of(21.5)));

        assertEquals("spBv1.0/plant/NDEATH/agent-1", will.topic());
        assertEquals(1, will.qos());
        assertFalse(will.retained());
        Payload death = Payload.parseFrom(will.payload());
        assertFalse(death.hasSeq(), "NDEATH carries no seq");

        assertEquals(List.of("spBv1.0/plant/NBIRTH/agent-1", "spBv1.0/plant/DBIRTH/agent-1/lab_thermo",
                "spBv1.0/plant/DDATA/agent-1/lab_thermo"), out.sent.stream().map(Sent::topic).toList());
        assertEquals(List.of(0L, 1L, 2L), out.sent.stream().map(Sent::seq).toList());
        assertTrue(out.sent.stream().allMatch(s -> s.qos() == 0 && !s.retained()));

        Payload nbirth = out.sent.get(0).payload();
        assertEquals(death.getMetrics(0).getLongValue(), metric(nbirth, "bdSeq").getLongValue());
        Payload.Metric rebirth = metric(nbirth, "Node Control/Rebirth");
        assertEquals(DataType.BOOLEAN.code(), rebirth.getDatatype());
        assertFalse(rebirth.getBooleanValue());
        assertFalse(rebirth.hasAlias(), "Node Control/Rebirth has no alias");

        Payload.Metric temperature = metric(out.sent.get(1).payload(), "temperature");
        assertEquals(DataType.DOUBLE.code(), temperature.getDatatype());
        assertTrue(temperature.getIsNull(), "no value yet at the birth");
        assertEquals("engUnit", temperature.getProperties().getKeys(0));
        assertEquals("Cel", temperature.getProperties().getValues(0).getStringValue());
        assertEquals("air temperature", temperature.getProperties().getValues(1).getStringValue());

        Payload.Metric data = out.sent.get(2).payload().getMetrics(0);
        assertFalse(data.hasName(), "DDATA names its metric by alias only");
        assertEquals(temperature.getAlias(), data.getAlias());
        assertEquals(21.5, data.getDoubleValue());
        assertEquals(1_700_000_000_123L, data.getTimestamp());
    }

    @Test
    void seqWrapsFrom255ToZeroAcrossAllTheNodesMessages() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        for (int i = 0; i < 300; i++) {
            node.forward(out, "t", reading("lab/thermo", "count", Value.of(i)));
        }
        for (int i = 0; i < out.sent.size(); i++) {
            assertEquals(i % 256, out.sent.get(i).seq(), "message " + i);
        }
        assertEquals(299, out.sent.get(out.sent.size() - 1).payload().getMetrics(0).getLongValue());
    }

    @Test
    void aRefusedMessageKeepsItsSeqForTheNextTry() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        out.refusing = true;
        byte[] r = reading("lab/thermo", "count", Value.of(7));
        assertThrows(MqttException.class, () -> node.forward(out, "t", r));
        out.refusing = false;
        node.forward(out, "t", r);
        assertEquals(List.of(0L, 1L, 2L), out.sent.stream().map(Sent::seq).toList());
    }

    @Test
    void everyConnectionHasTheNextBdSeqWrappingAfter255() throws Exception {
        List<Long> seen = new ArrayList<>();
        for (int i = 0; i < 258; i++) {
            seen.add(Payload.parseFrom(node.nextWill().payload()).getMetrics(0).getLongValue());
        }
        assertEquals(List.of(0L, 1L, 255L, 0L, 1L), List.of(seen.get(0), seen.get(1), seen.get(255), seen.get(256),
                seen.get(257)));
        node.control(out, true);
        assertEquals(1, metric(out.sent.get(0).payload(), "bdSeq").getLongValue());
    }

    @Test
    void aRebirthRequestSendsTheBirthsAgainFromSeqZeroWithTheSameBdSeqAndLatestValues() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        node.forward(out, "t", reading("lab/thermo", "temperature", Value.of(19.0)));
        byte[] cmd = Payload.newBuilder().setTimestamp(1).setSeq(0).addMetrics(Payload.Metric.newBuilder()
                .setName("Node Control/Rebirth").setDatatype(DataType.BOOLEAN.code()).setBooleanValue(true)).build()
                .toByteArray();
        node.arrived("spBv1.0/plant/NCMD/agent-1", cmd);
        int before = out.sent.size();
        node.control(out, false);
        List<Sent> again = out.sent.subList(before, out.sent.size());
        assertEquals(List.of("spBv1.0/plant/NBIRTH/agent-1", "spBv1.0/plant/DBIRTH/agent-1/lab_thermo"),
                again.stream().map(Sent::topic).toList());
        assertEquals(List.of(0L, 1L), again.stream().map(Sent::seq).toList());
        assertEquals(0, metric(again.get(0).payload(), "bdSeq").getLongValue());
        assertEquals(19.0, metric(again.get(1).payload(), "temperature").getDoubleValue());
    }

    @Test
    void aDeviceCommandIsRefusedWithoutPublishing() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        int before = out.sent.size();
        node.arrived("spBv1.0/plant/DCMD/agent-1/lab_thermo", Payload.newBuilder().setTimestamp(1)
                .addMetrics(Payload.Metric.newBuilder().setName("temperature").setDoubleValue(99)).build().toByteArray());
        node.control(out, false);
        assertEquals(before, out.sent.size());
    }

    @Test
    void aRemovedSensorGetsADdeathAndItsQueuedReadingsAreDropped() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        node.remove("lab/thermo");
        node.forward(out, "t", reading("lab/thermo", "count", Value.of(1)));
        node.control(out, false);
        Sent last = out.sent.get(out.sent.size() - 1);
        assertEquals("spBv1.0/plant/DDEATH/agent-1/lab_thermo", last.topic());
        assertEquals(2, last.seq());
        assertEquals(3, out.sent.size());
    }

    @Test
    void aReadingOfAnUndeclaredMetricIsBornBeforeItsData() throws Exception {
        node.nextWill();
        node.control(out, true);
        node.forward(out, "t", reading("new.sensor", "value", Value.of(3)));
        assertEquals(List.of("spBv1.0/plant/NBIRTH/agent-1", "spBv1.0/plant/DBIRTH/agent-1/new.sensor",
                "spBv1.0/plant/DDATA/agent-1/new.sensor"), out.sent.stream().map(Sent::topic).toList());
        Payload.Metric born = metric(out.sent.get(1).payload(), "value");
        assertEquals(DataType.INT64.code(), born.getDatatype());
        assertEquals(born.getAlias(), out.sent.get(2).payload().getMetrics(0).getAlias());
        assertEquals(3, out.sent.get(2).payload().getMetrics(0).getLongValue());
    }

    @Test
    void aFailedReadingIsANullValue() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        node.forward(out, "t", Payloads.reading(Reading.error("lab/thermo", 1_000_000, 2, "bus timeout"), "temperature"));
        Payload.Metric m = out.sent.get(2).payload().getMetrics(0);
        assertTrue(m.getIsNull());
        assertFalse(m.hasDoubleValue());
    }

    @Test
    void aWindowsAggregateIsADdataOfItsMeanAtTheWindowsEnd() throws Exception {
        defineThermometer();
        node.nextWill();
        node.control(out, true);
        Report.Window w = new Report.Window("lab/thermo", 1_700_000_000_000_000L, java.time.Duration.ofSeconds(10), 4,
                20.0, 23.0, 21.25, "Cel");
        node.forward(out, "t", Payloads.report(w, "temperature"));
        Payload.Metric m = out.sent.get(2).payload().getMetrics(0);
        assertEquals(21.25, m.getDoubleValue());
        assertEquals(1_700_000_010_000L, m.getTimestamp());
    }

    private static final String CML = Cml.write("s", List.of(
            CommandDescription.builder("temperature").shortDescription("air").response("decimal", "Cel")
                    .streaming(new SamplingBounds(100, 60_000)).build(),
            CommandDescription.builder("write").shortDescription("set the limit").response("decimal", "kW")
                    .argument(new Argument("value", Argument.Type.DECIMAL, 0.0, 10.0, null, false, "")).build(),
            CommandDescription.builder("reset").response("integer", "").build()));

    @Test
    void metricsAreTheStreamableCommandsAndWithWritesTheOneArgumentCommands() {
        MetricSpec temperature = new MetricSpec("temperature", DataType.DOUBLE, "Cel", "air");
        assertEquals(List.of(temperature), SparkplugMetrics.of(CML, false));
        assertEquals(List.of(temperature, new MetricSpec("write", DataType.DOUBLE, "kW", "set the limit", 0.0, 10.0,
                "value")), SparkplugMetrics.of(CML, true));
    }

    private record Write(String sensor, String command, String argument, String value) {}

    @Test
    void aDeviceCommandToAWriteMetricExecutesItByNameOrAliasAndOthersAreRefused() throws Exception {
        List<Write> writes = new ArrayList<>();
        SparkplugNode writable = new SparkplugNode(new SparkplugTopics("plant", "agent-1"), CLOCK,
                (sensor, command, argument, value) -> writes.add(new Write(sensor, command, argument, value)));
        writable.define("meter/1", SparkplugMetrics.of(CML, true));
        writable.nextWill();
        writable.control(out, true);
        Payload.Metric born = metric(out.sent.get(1).payload(), "write");
        assertEquals(10.0, born.getProperties().getValues(born.getProperties().getKeysList().indexOf("engHigh"))
                .getDoubleValue());

        String dcmd = "spBv1.0/plant/DCMD/agent-1/meter_1";
        writable.arrived(dcmd, Payload.newBuilder().addMetrics(Payload.Metric.newBuilder().setName("write")
                .setDoubleValue(7.5)).build().toByteArray());
        writable.arrived(dcmd, Payload.newBuilder().addMetrics(Payload.Metric.newBuilder().setAlias(born.getAlias())
                .setLongValue(3)).build().toByteArray());
        writable.arrived(dcmd, Payload.newBuilder().addMetrics(Payload.Metric.newBuilder().setName("temperature")
                .setDoubleValue(99)).build().toByteArray());
        writable.arrived("spBv1.0/plant/DCMD/agent-1/other", Payload.newBuilder().addMetrics(Payload.Metric
                .newBuilder().setName("write").setDoubleValue(1)).build().toByteArray());

        assertEquals(List.of(new Write("meter/1", "write", "value", "7.5"), new Write("meter/1", "write", "value", "3")),
                writes);
    }

    @Test
    void groupAndNodeIdsMustBeOneTopicLevel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SparkplugTopics("plant/a", "n"));
        assertTrue(e.getMessage().contains("--sparkplug-group"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SparkplugTopics("g", "n+"));
        assertEquals("a_b_c", SparkplugTopics.device("a/b#c"));
    }

    private static Payload.Metric metric(Payload p, String name) {
        return p.getMetricsList().stream().filter(m -> name.equals(m.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + p));
    }
}
