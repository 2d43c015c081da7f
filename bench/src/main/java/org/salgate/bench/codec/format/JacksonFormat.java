package org.salgate.bench.codec.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.io.IOException;
import org.msgpack.jackson.dataformat.MessagePackFactory;

/** A format written and read by Jackson data binding: JSON here, the XML and MessagePack mappers too. */
public class JacksonFormat implements PayloadFormat {

    private final String name;
    private final ObjectMapper mapper;

    public JacksonFormat(String name, ObjectMapper mapper) {
        this.name = name;
        this.mapper = mapper.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    }

    /** The {@code json} format. */
    public static JacksonFormat json() {
        return new JacksonFormat("json", JsonMapper.builder().build());
    }

    /** The {@code msgpack} format: MessagePack through jackson-dataformat-msgpack. */
    public static JacksonFormat msgpack() {
        return new JacksonFormat("msgpack", new ObjectMapper(new MessagePackFactory()));
    }

    /** The {@code xml} format: jackson-dataformat-xml with its defaults (wrapped lists, no indentation). */
    public static JacksonFormat xml() {
        return new JacksonFormat("xml", XmlMapper.builder().build());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] encode(Object value) throws IOException {
        return mapper.writeValueAsBytes(value);
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) throws IOException {
        try {
            return mapper.readValue(bytes, type);
        } catch (RuntimeException e) {
            throw new IOException("not a valid " + name + " " + type.getSimpleName() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
