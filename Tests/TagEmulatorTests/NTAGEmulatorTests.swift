import TagEmulator
import Testing
