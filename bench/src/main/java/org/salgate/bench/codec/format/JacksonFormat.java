package org.salgate.bench.codec.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

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
        return mapper.readValue(bytes, type);
    }

    @Override
    public String toString() {
        return name;
    }
}
