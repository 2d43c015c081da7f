package org.salgate.codec.gzip;

/** Gzip around the json codec: {@code json+gzip}. */
public final class JsonGzipCodec extends GzipCodec {

    public JsonGzipCodec() {
        super(new org.salgate.codec.json.JsonCodec());
    }
}
