package org.salgate.codec.gzip;

/** Gzip around the protobuf codec: {@code protobuf+gzip}. */
public final class ProtobufGzipCodec extends GzipCodec {

    public ProtobufGzipCodec() {
        super(new org.salgate.wire.ProtobufCodec());
    }
}
