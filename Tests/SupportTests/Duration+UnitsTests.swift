import Support
import Testing

@Test(arguments: [
    (Duration.zero, 0, 0.0, 0, 0),
    (.microseconds(1), 1, 1.0, 0, 1),
    (.nanoseconds(1_999), 1, 1.999, 0, 1),
    (.milliseconds(1_500), 1_500_000, 1_500_000.0, 1_500, 1_500),
    (.nanoseconds(2_000_000_001), 2_000_000, 2_000_000.001, 2_000, 2_001),
])
func durationsConvertOnceForEveryLayer(
    duration: Duration, wholeMicroseconds: Int, microseconds: Double, wholeMilliseconds: Int, roundedUp: Int
) {
    #expect(duration.wholeMicroseconds == wholeMicroseconds)
    #expect(abs(duration.microseconds - microseconds) < 1e-6)
    #expect(duration.wholeMilliseconds == wholeMilliseconds)
    #expect(duration.millisecondsRoundedUp == roundedUp)
    #expect(abs(duration.seconds - microseconds / 1e6) < 1e-12)
}
