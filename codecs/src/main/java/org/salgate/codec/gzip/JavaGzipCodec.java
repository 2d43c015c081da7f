package org.salgate.codec.gzip;

/** Gzip around the java codec: {@code java+gzip}. */
public final class JavaGzipCodec extends GzipCodec {

    public JavaGzipCodec() {
        super(new org.salgate.codec.java.JavaCodec());
    }
}
