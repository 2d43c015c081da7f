package org.salgate.codec.gzip;

/** Gzip around the msgpack codec: {@code msgpack+gzip}. */
public final class MsgpackGzipCodec extends GzipCodec {

    public MsgpackGzipCodec() {
        super(new org.salgate.codec.msgpack.MsgpackCodec());
    }
}
