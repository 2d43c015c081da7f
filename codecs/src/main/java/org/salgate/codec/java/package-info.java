/** The Java serialization codec, with a JEP 290 allow-list filter. */
package org.salgate.codec.java;
