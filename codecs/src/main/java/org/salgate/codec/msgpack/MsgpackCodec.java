package org.salgate.codec.msgpack;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import org.salgate.codec.TreeCodec;

/** Messages as MessagePack maps (jackson-dataformat-msgpack); bytes are native binary. */
public final class MsgpackCodec extends TreeCodec {

    public static final String NAME = "msgpack";

    public MsgpackCodec() {
        // a key given twice is refused, as the JSON codec does (XML has its own rule for repeated names)
        super(NAME, new ObjectMapper(factory()).enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY));
    }

    private static MessagePackFactory factory() {
        MessagePackFactory factory = new MessagePackFactory();
        factory.setStreamReadConstraints(LIMITS);
        return factory;
    }
}
