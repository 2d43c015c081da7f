package org.salgate.mqtt.sparkplug;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import java.util.Base64;
import java.util.List;
import org.salgate.mqtt.sparkplug.MetricSpec.DataType;
import org.salgate.mqtt.sparkplug.proto.SparkplugB.Payload;

/** The Sparkplug B payloads of an edge node, made from the bridge's state; pure functions. */
final class SparkplugPayloads {

    /** The NBIRTH/NDEATH metric pairing a birth with its death certificate. */
    static final String BD_SEQ = "bdSeq";
    /** The NBIRTH/NCMD metric by which a host asks for all births again. */
    static final String REBIRTH = "Node Control/Rebirth";

    /** A metric's value at a time; {@code value} null when there is none (a failed reading). */
    record Sample(long timestampMillis, JsonNode value) {}

    /** A metric in a DBIRTH: its definition, alias and latest sample (null before the first). */
    record Born(MetricSpec spec, long alias, Sample latest) {}

    private SparkplugPayloads() {}

    static byte[] nbirth(long now, int seq, int bdSeq) {
        return Payload.newBuilder().setTimestamp(now).setSeq(seq)
                .addMetrics(Payload.Metric.newBuilder().setName(BD_SEQ).setTimestamp(now)
                        .setDatatype(DataType.INT64.code()).setLongValue(bdSeq))
                .addMetrics(Payload.Metric.newBuilder().setName(REBIRTH).setTimestamp(now)
                        .setDatatype(DataType.BOOLEAN.code()).setBooleanValue(false))
                .build().toByteArray();
    }

    /** The death certificate: the bdSeq of its connection, and no seq. */
    static byte[] ndeath(long now, int bdSeq) {
        return Payload.newBuilder().setTimestamp(now)
                .addMetrics(Payload.Metric.newBuilder().setName(BD_SEQ).setTimestamp(now)
                        .setDatatype(DataType.INT64.code()).setLongValue(bdSeq))
                .build().toByteArray();
    }

    static byte[] dbirth(long now, int seq, List<Born> metrics) {
        Payload.Builder p = Payload.newBuilder().setTimestamp(now).setSeq(seq);
        for (Born b : metrics) {
            MetricSpec spec = b.spec();
            Payload.Metric.Builder m = Payload.Metric.newBuilder().setName(spec.name()).setAlias(b.alias())
                    .setDatatype(spec.type().code());
            Payload.PropertySet.Builder props = Payload.PropertySet.newBuilder();
            if (!spec.unit().isEmpty()) {
                props.addKeys("engUnit").addValues(text(spec.unit()));
            }
            if (!spec.description().isEmpty()) {
                props.addKeys("description").addValues(text(spec.description()));
            }
            if (spec.low() != null) {
                props.addKeys("engLow").addValues(number(spec.low()));
            }
            if (spec.high() != null) {
                props.addKeys("engHigh").addValues(number(spec.high()));
            }
            if (props.getKeysCount() > 0) {
                m.setProperties(props);
            }
            set(m, spec.type(), b.latest() == null ? new Sample(now, null) : b.latest());
            p.addMetrics(m);
        }
        return p.build().toByteArray();
    }

    /** One value of one metric, named by its alias only. */
    static byte[] ddata(long now, int seq, long alias, DataType type, Sample sample) {
        Payload.Metric.Builder m = Payload.Metric.newBuilder().setAlias(alias);
        set(m, type, sample);
        return Payload.newBuilder().setTimestamp(now).setSeq(seq).addMetrics(m).build().toByteArray();
    }

    static byte[] ddeath(long now, int seq) {
        return Payload.newBuilder().setTimestamp(now).setSeq(seq).build().toByteArray();
    }

    /**
     * Sets a metric's timestamp and value as {@code type} says; a value that does not fit the type
     * (text in a Double) is sent as null rather than as a wrong number.
     */
    private static void set(Payload.Metric.Builder m, DataType type, Sample s) {
        m.setTimestamp(s.timestampMillis());
        JsonNode v = s.value();
        if (v == null || v.isNull()) {
            m.setIsNull(true);
            return;
        }
        switch (type) {
            case DOUBLE -> {
                if (v.isNumber()) {
                    m.setDoubleValue(v.asDouble());
                } else {
                    m.setIsNull(true);
                }
            }
            case INT64, UINT64 -> {
                if (v.isIntegralNumber() || v.isNumber() && v.asDouble() == Math.rint(v.asDouble())) {
                    m.setLongValue(v.asLong());
                } else {
                    m.setIsNull(true);
                }
            }
            case BOOLEAN -> {
                if (v.isBoolean()) {
                    m.setBooleanValue(v.asBoolean());
                } else {
                    m.setIsNull(true);
                }
            }
            case BYTES -> m.setBytesValue(ByteString.copyFrom(Base64.getDecoder().decode(v.asText())));
            case STRING -> m.setStringValue(v.asText());
            default -> m.setIsNull(true);
        }
    }

    private static Payload.PropertyValue number(double d) {
        return Payload.PropertyValue.newBuilder().setType(DataType.DOUBLE.code()).setDoubleValue(d).build();
    }

    private static Payload.PropertyValue text(String s) {
        return Payload.PropertyValue.newBuilder().setType(DataType.STRING.code()).setStringValue(s).build();
    }
}
