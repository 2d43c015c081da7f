package org.salgate.codec.msgpack;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import org.salgate.codec.TreeCodec;

/** Messages as MessagePack maps (jackson-dataformat-msgpack); bytes are native binary. */
public final class MsgpackCodec extends TreeCodec {

    public static final String NAME = "msgpack";

    public MsgpackCodec() {
        super(NAME, new ObjectMapper(factory()));
    }

    private static MessagePackFactory factory() {
        MessagePackFactory factory = new MessagePackFactory();
        factory.setStreamReadConstraints(LIMITS);
        return factory;
    }
}
