package org.salgate.codec.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.salgate.codec.TreeCodec;

/** Messages as JSON documents (Jackson); bytes are base64 strings. */
public final class JsonCodec extends TreeCodec {

    public static final String NAME = "json";

    public JsonCodec() {
        super(NAME, JsonMapper.builder(JsonFactory.builder().streamReadConstraints(LIMITS).build())
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .build());
    }
}
